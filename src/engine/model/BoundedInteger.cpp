#include "BoundedInteger.h"

#include <QCoreApplication>
#include <QJsonValue>

#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr qint64 limit = qint64(1) << 62;

QString rangeError(const QString &field, const QString &shown, qint64 minimum, qint64 maximum)
{
    return QCoreApplication::translate("BoundedInteger", "%1: %2 is not a whole number from %3 to %4")
        .arg(field, shown).arg(minimum).arg(maximum);
}

std::optional<qint64> refuse(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return std::nullopt;
}

QString shortened(QStringView text)
{
    constexpr qsizetype shown = 40;
    const QString quoted = u'\'' + (text.size() > shown ? text.first(shown).toString() + QChar(0x2026) : text.toString()) + u'\'';
    return quoted;
}

} // namespace

std::optional<qint64> BoundedInteger::fromJson(const QJsonValue &value, qint64 minimum, qint64 maximum,
                                               const QString &field, QString *error)
{
    Q_ASSERT(minimum <= maximum && minimum >= -limit && maximum <= limit);
    if (!value.isDouble()) {
        const QString type = value.isString() ? u"a string"_s
            : value.isBool()                  ? u"a boolean"_s
            : value.isNull()                  ? u"null"_s
            : value.isArray()                 ? u"an array"_s
            : value.isObject()                ? u"an object"_s
                                              : u"missing"_s;
        return refuse(error, QCoreApplication::translate("BoundedInteger", "%1: expected a whole number, got %2").arg(field, type));
    }
    const double d = value.toDouble();
    const QString shown = QString::number(d, 'g', 17);
    // Compare as doubles first: only values already inside (about) the range are converted,
    // so the conversion below is always defined.
    if (!std::isfinite(d) || d != std::floor(d) || d < double(minimum) - 1.0 || d > double(maximum) + 1.0)
        return refuse(error, rangeError(field, shown, minimum, maximum));
    // Exact when the parser kept the integer (2^53 + 1 stays 2^53 + 1).
    const qint64 exact = value.toInteger(qint64(d));
    if (exact < minimum || exact > maximum)
        return refuse(error, rangeError(field, QString::number(exact), minimum, maximum));
    return exact;
}

std::optional<qint64> BoundedInteger::fromString(QStringView text, qint64 minimum, qint64 maximum,
                                                 const QString &field, QString *error)
{
    Q_ASSERT(minimum <= maximum && minimum >= -limit && maximum <= limit);
    qsizetype i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == u'-' || text[i] == u'+')) {
        negative = text[i] == u'-';
        ++i;
    }
    if (i == text.size())
        return refuse(error, rangeError(field, shortened(text), minimum, maximum));
    // Accumulate with a ceiling, so 2^63 and longer digit strings never overflow.
    qint64 magnitude = 0;
    for (; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (c < u'0' || c > u'9')
            return refuse(error, rangeError(field, shortened(text), minimum, maximum));
        magnitude = magnitude > limit / 10 ? limit + 1 : magnitude * 10 + (c - u'0');
    }
    if (magnitude > limit)
        return refuse(error, rangeError(field, shortened(text), minimum, maximum));
    const qint64 v = negative ? -magnitude : magnitude;
    if (v < minimum || v > maximum)
        return refuse(error, rangeError(field, shortened(text), minimum, maximum));
    return v;
}

} // namespace wl
