#ifndef MANAGEDGEN_CLIBXML2_SHIM_H
#define MANAGEDGEN_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, so encoding.h would pull in the system's ICU headers,
// whose types clash with Foundation's bundled ICU in the same module ("'UErrorCode' has
// different definitions in different modules"). The reader never touches the ICU converter
// fields, so leave them out.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
#endif
