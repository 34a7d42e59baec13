/*
 * sax-floor: the least any tool that reads a model's XML can do. It reads the file into memory
 * and runs libxml2's SAX2 parser over it with no callbacks at all, with the options momlint's
 * XMLEventParser uses (no network, predefined entities only, no CDATA nodes, UTF-8 whatever the
 * declaration says), then exits. No tree, no strings, no model: a parse-only floor beside
 * `xmllint --stream --noout` (a reader over the same parser) and `xmllint --noout` (a DOM).
 *
 * Built and run by scripts/benchmarks.sh:
 *   cc -O2 sax-floor.c $(pkg-config --cflags --libs libxml-2.0) -o sax-floor
 *   sax-floor FILE...     exit 0 when every file is well-formed, 1 otherwise
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

static int parse_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); return 0; }
    if (fseek(file, 0, SEEK_END) != 0) { perror(path); fclose(file); return 0; }
    long size = ftell(file);
    rewind(file);
    char *bytes = malloc(size > 0 ? (size_t)size : 1);
    if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(bytes);
        fclose(file);
        return 0;
    }
    fclose(file);

    xmlParserCtxtPtr context = xmlCreateMemoryParserCtxt(bytes, (int)size);
    if (!context) { free(bytes); return 0; }
    xmlCtxtUseOptions(context, XML_PARSE_NONET | XML_PARSE_NOENT | XML_PARSE_NOWARNING
                               | XML_PARSE_NOCDATA | XML_PARSE_IGNORE_ENC);
    /* A SAX2 handler with every callback NULL: libxml2 still tokenizes every tag and
       attribute (and checks well-formedness) but hands nothing out and builds nothing. */
    memset(context->sax, 0, sizeof(xmlSAXHandler));
    context->sax->initialized = XML_SAX2_MAGIC;
    int status = xmlParseDocument(context);
    int wellFormed = status == 0 && context->wellFormed;
    xmlFreeParserCtxt(context);
    free(bytes);
    if (!wellFormed) fprintf(stderr, "%s: not well-formed\n", path);
    return wellFormed;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: sax-floor FILE...\n");
        return 2;
    }
    xmlInitParser();
    int ok = 1;
    for (int index = 1; index < argc; index++) ok &= parse_file(argv[index]);
    return ok ? 0 : 1;
}
