#ifndef UNC_CONSOLE_H
#define UNC_CONSOLE_H

#include <efi.h>
#include "../drivers/base/fmt.h"

/* Sinks that write ASCII text to ConOut / StdErr as UCS-2, "\n" as "\r\n". */
struct out console_out(void);
struct out console_err(void);

#endif
