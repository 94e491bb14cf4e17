#include "ShownList.h"

#include <algorithm>
#include <array>

namespace wl {

namespace {

// a1 + a2 == b1 + b2, without building either.
bool concatEquals(QStringView a1, QStringView a2, QStringView b1, QStringView b2)
{
    if (a1.size() + a2.size() != b1.size() + b2.size())
        return false;
    if (a1.size() > b1.size()) {
        std::swap(a1, b1);
        std::swap(a2, b2);
    }
    const qsizetype n = a1.size();
    const qsizetype m = b1.size() - n;
    return a1 == b1.first(n) && a2.first(m) == b1.sliced(n) && a2.sliced(m) == b2;
}

} // namespace

void ShownList::append(QStringView text, QStringView suffix)
{
    if (text.isEmpty() && suffix.isEmpty())
        return;
    for (const Shown &s : std::as_const(m_items)) {
        if (concatEquals(s.text, s.suffix, text, suffix))
            return;
    }
    m_items.append({text, suffix});
}

void ShownList::appendTo(QString &out, int max, QStringView prefix) const
{
    const qsizetype shown = std::min<qsizetype>(m_items.size(), max);
    // " (+N more)"
    std::array<char16_t, 32> moreText;
    QStringView more;
    if (m_items.size() > max) {
        std::array<char16_t, 20> digits;
        auto digit = digits.end();
        for (quint64 n = quint64(m_items.size() - max); n != 0 || digit == digits.end(); n /= 10)
            *--digit = char16_t(u'0' + n % 10);
        constexpr QStringView open = u" (+", close = u" more)";
        auto end = std::copy(open.utf16(), open.utf16() + open.size(), moreText.begin());
        end = std::copy(digit, digits.end(), end);
        end = std::copy(close.utf16(), close.utf16() + close.size(), end);
        more = QStringView(moreText.data(), end - moreText.begin());
    }
    qsizetype total = more.size();
    for (qsizetype k = 0; k < shown; ++k)
        total += (k > 0 ? 2 : 0) + prefix.size() + m_items[k].text.size() + m_items[k].suffix.size();
    const qsizetype at = out.size();
    out.resize(at + total);
    QChar *to = out.data() + at;
    auto put = [&to](QStringView piece) { to = std::copy(piece.begin(), piece.end(), to); };
    for (qsizetype k = 0; k < shown; ++k) {
        if (k > 0)
            put(u", ");
        put(prefix);
        put(m_items[k].text);
        put(m_items[k].suffix);
    }
    put(more);
    Q_ASSERT(to == out.constData() + out.size());
}

} // namespace wl
