#pragma once

#include <QByteArray>
#include <QByteArrayView>

// Byte-level UTF-8 helpers shared by the tools that page or cap output.
namespace wl::Utf8Text {

// Length of the sequence a lead byte announces (1-4), or 0 for a continuation or invalid byte.
int sequenceLength(unsigned char lead);

inline bool isContinuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// The largest position <= pos that does not split a UTF-8 sequence of `data`.
qsizetype boundaryAtOrBefore(QByteArrayView data, qsizetype pos);

// The smallest position >= pos that does not split a UTF-8 sequence of `data`.
qsizetype boundaryAtOrAfter(QByteArrayView data, qsizetype pos);

// Length of `data` without an incomplete sequence at its end (a buffer cut at an arbitrary byte).
qsizetype completePrefixLength(QByteArrayView data);

// Continuation bytes (at most 3) at the start of `data`: the rest of a sequence cut off in front.
qsizetype leadingContinuationBytes(QByteArrayView data);

// Strict validation (no overlong forms, no surrogates, <= U+10FFFF).
// With allowTruncatedEnd, an incomplete sequence at the very end counts as valid:
// the sample was cut from a longer stream.
bool isValid(QByteArrayView data, bool allowTruncatedEnd = false);

// "Binary" as the tools report it: a NUL byte or invalid UTF-8 in the sample.
bool looksBinary(QByteArrayView sample, bool sampleIsPrefix);

} // namespace wl::Utf8Text
