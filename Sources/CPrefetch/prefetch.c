// The module is its header (cprefetch.h); SwiftPM wants a source file in a C target.
#include "cprefetch.h"
