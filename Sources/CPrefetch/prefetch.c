#include "cprefetch.h"
