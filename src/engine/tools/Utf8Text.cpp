#include "tools/Utf8Text.h"

namespace wl::Utf8Text {

int sequenceLength(unsigned char lead)
{
    if (lead < 0x80)
        return 1;
    if (lead >= 0xC2 && lead <= 0xDF)
        return 2;
    if (lead >= 0xE0 && lead <= 0xEF)
        return 3;
    if (lead >= 0xF0 && lead <= 0xF4)
        return 4;
    return 0;
}

qsizetype boundaryAtOrBefore(QByteArrayView data, qsizetype pos)
{
    if (pos <= 0)
        return 0;
    if (pos >= data.size())
        return data.size();
    // Step back over at most three continuation bytes to the lead byte.
    qsizetype start = pos;
    while (start > 0 && pos - start < 3 && isContinuation(static_cast<unsigned char>(data[start])))
        --start;
    if (start == pos)
        return pos;
    const int length = sequenceLength(static_cast<unsigned char>(data[start]));
    // pos is inside the sequence that starts at `start`: cut before it. Otherwise
    // (stray continuation bytes) any position is as good as another.
    return (length > 0 && start + length > pos) ? start : pos;
}

qsizetype boundaryAtOrAfter(QByteArrayView data, qsizetype pos)
{
    if (pos <= 0)
        return 0;
    if (pos >= data.size())
        return data.size();
    const qsizetype before = boundaryAtOrBefore(data, pos);
    if (before == pos)
        return pos;
    const int length = sequenceLength(static_cast<unsigned char>(data[before]));
    return qMin(before + length, data.size());
}

qsizetype completePrefixLength(QByteArrayView data)
{
    const qsizetype size = data.size();
    qsizetype lead = size - 1;
    while (lead > 0 && size - lead < 4 && isContinuation(static_cast<unsigned char>(data[lead])))
        --lead;
    if (lead < 0)
        return 0;
    const int length = sequenceLength(static_cast<unsigned char>(data[lead]));
    return (length > 1 && lead + length > size) ? lead : size;
}

qsizetype leadingContinuationBytes(QByteArrayView data)
{
    qsizetype count = 0;
    while (count < data.size() && count < 3 && isContinuation(static_cast<unsigned char>(data[count])))
        ++count;
    return count;
}

bool isValid(QByteArrayView data, bool allowTruncatedEnd)
{
    const auto *bytes = reinterpret_cast<const unsigned char *>(data.data());
    const qsizetype size = data.size();
    qsizetype i = 0;
    while (i < size) {
        const unsigned char lead = bytes[i];
        if (lead < 0x80) {
            ++i;
            continue;
        }
        const int length = sequenceLength(lead);
        if (length == 0)
            return false;
        for (int k = 1; k < length; ++k) {
            if (i + k >= size)
                return allowTruncatedEnd;
            const unsigned char next = bytes[i + k];
            if (!isContinuation(next))
                return false;
            if (k == 1) {
                // Second-byte ranges that exclude overlongs, surrogates and > U+10FFFF.
                if ((lead == 0xE0 && next < 0xA0) || (lead == 0xED && next > 0x9F)
                    || (lead == 0xF0 && next < 0x90) || (lead == 0xF4 && next > 0x8F))
                    return false;
            }
        }
        i += length;
    }
    return true;
}

bool looksBinary(QByteArrayView sample, bool sampleIsPrefix)
{
    return sample.contains('\0') || !isValid(sample, sampleIsPrefix);
}

} // namespace wl::Utf8Text
