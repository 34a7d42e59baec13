// The parts of libxml2 that momlint uses: the SAX2 parser and its error reporting.
#ifndef MOMLINT_CLIBXML2_SHIM_H
#define MOMLINT_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and its encoding.h then includes ICU's headers,
// which clash with the copy of ICU inside Foundation ("'UErrorCode' has different
// definitions in different modules"). momlint never touches the ICU converter fields of
// xmlCharEncodingHandler (it only passes pointers to it), so the headers are read
// without ICU; the library's layout is unchanged for everything we use.
#ifdef LIBXML_ICU_ENABLED
#undef LIBXML_ICU_ENABLED
#endif
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#endif
