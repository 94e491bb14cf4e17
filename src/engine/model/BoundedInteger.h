#pragma once

#include <QString>

#include <optional>

class QJsonValue;

namespace wl {

// Reads a whole number that must lie in [minimum, maximum] from untrusted input: a JSON value
// (imports, settings, policies) or text (command-line options). Anything else -- not a number,
// fractional, NaN/Infinity, 1e300, 2^63, "12abc", "" -- is refused with a translated message that
// names `field`, so no caller ever casts an out-of-range double to an integer (undefined
// behaviour) or takes a negative window. Bounds must lie within +-2^62.
//
//   QString error;
//   const auto window = BoundedInteger::fromJson(o.value(u"context_window"), 1, BoundedInteger::maxTokens,
//                                                u"context_window"_s, &error);
//   if (!window) return fail(error);
class BoundedInteger
{
public:
    // Largest token count any field accepts (a context window of a billion tokens is already absurd).
    static constexpr qint64 maxTokens = 1'000'000'000'000;
    // Largest byte size any field accepts (1 PiB).
    static constexpr qint64 maxBytes = qint64(1) << 50;

    // JSON numbers only; strings are refused even when they hold digits.
    static std::optional<qint64> fromJson(const QJsonValue &value, qint64 minimum, qint64 maximum,
                                          const QString &field, QString *error = nullptr);
    // Optional decimal digits with an optional sign, nothing else (no spaces, no exponent).
    static std::optional<qint64> fromString(QStringView text, qint64 minimum, qint64 maximum,
                                            const QString &field, QString *error = nullptr);
};

} // namespace wl
