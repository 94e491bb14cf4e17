#pragma once

#include <QStringView>

namespace wl {

// The UTF-8 size of `text` without encoding it: 1, 2 or 3 bytes per UTF-16 unit, 4 per surrogate
// pair, 3 per lone surrogate (the encoder writes U+FFFD for it). Message sizes and token estimates
// both count with it, so a view's sum and its messages' cached sizes always agree.
qint64 utf8ByteCount(QStringView text);

// '\n'-separated lines; a trailing newline does not start another line (0 for empty text).
// Offload placeholders give a result's line count.
int lineCount(QStringView text);

} // namespace wl
