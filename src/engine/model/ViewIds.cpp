#include "ViewIds.h"

#include "LoggingCategories.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

#include <algorithm>

namespace wl {

namespace {


void setError(QString *error, const QString &text)
{
    if (error)
        *error = text;
}

// An id is a whole number a qint64 holds exactly: 1e300, 1.5 or 2^63 is damage, not 0 or a cast.
std::optional<qint64> wholeNumber(const QJsonValue &v)
{
    // toInteger() gives its default for anything that is not such a number: two different
    // defaults agree only on a real value.
    const qint64 value = v.toInteger(0);
    if (!v.isDouble() || value != v.toInteger(1))
        return std::nullopt;
    return value;
}

} // namespace

ViewIds::const_iterator &ViewIds::const_iterator::operator++()
{
    if (m_value < m_range->last) {
        ++m_value;
    } else if (++m_range != m_end) {
        m_value = m_range->first;
    }
    return *this;
}

ViewIds::ViewIds(std::initializer_list<qint64> ids)
{
    for (qint64 id : ids) {
        if (!append(id))
            qCWarning(lcModel) << "view id" << id << "does not ascend; dropped";
    }
}

ViewIds ViewIds::range(qint64 first, qint64 last)
{
    ViewIds ids;
    if (first >= 0 && last >= first)
        (void)ids.appendRange(first, last);
    return ids;
}

std::optional<ViewIds> ViewIds::fromList(const QList<qint64> &list, QString *error)
{
    ViewIds ids;
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (!ids.append(list[i])) {
            setError(error, QCoreApplication::translate("wl::ViewIds", "view id %1 at position %2 is negative or does not come after %3")
                                .arg(list[i]).arg(i).arg(ids.last()));
            return std::nullopt;
        }
    }
    return ids;
}

bool ViewIds::append(qint64 id)
{
    return appendRange(id, id);
}

bool ViewIds::appendRange(qint64 first, qint64 last)
{
    if (first < 0 || last < first || (!m_ranges.isEmpty() && first <= m_ranges.constLast().last))
        return false;
    // Unsigned: the difference of any 0 <= first <= last fits; the count must stay a qsizetype.
    const quint64 span = quint64(last) - quint64(first);
    if (span >= quint64(std::numeric_limits<qsizetype>::max() - m_size))
        return false;
    if (!m_ranges.isEmpty() && m_ranges.constLast().last == first - 1)
        m_ranges.last().last = last;
    else
        m_ranges.append({first, last});
    m_size += qsizetype(span) + 1;
    return true;
}

bool ViewIds::append(const ViewIds &more)
{
    if (more.isEmpty())
        return true;
    if (!isEmpty() && more.first() <= last())
        return false;
    if (quint64(more.m_size) > quint64(std::numeric_limits<qsizetype>::max() - m_size))
        return false;
    for (const Range &r : more.m_ranges)
        (void)appendRange(r.first, r.last); // ascends and fits: checked above
    return true;
}

bool ViewIds::contains(qint64 id) const
{
    // The first run that ends at or after `id`: it holds `id` when it starts at or before it.
    const auto it = std::lower_bound(m_ranges.cbegin(), m_ranges.cend(), id,
                                     [](const Range &r, qint64 value) { return r.last < value; });
    return it != m_ranges.cend() && it->first <= id;
}

QList<qint64> ViewIds::toList() const
{
    QList<qint64> out;
    out.reserve(m_size);
    for (qint64 id : *this)
        out.append(id);
    return out;
}

ViewIds ViewIds::positionsIn(const QList<qint64> &ascendingIds) const
{
    ViewIds out;
    for (const Range &r : m_ranges) {
        const auto from = std::lower_bound(ascendingIds.cbegin(), ascendingIds.cend(), r.first);
        const auto to = std::upper_bound(from, ascendingIds.cend(), r.last);
        if (from != to)
            (void)out.appendRange(from - ascendingIds.cbegin(), to - ascendingIds.cbegin() - 1); // ascends with the runs
    }
    return out;
}

void ViewIds::clear()
{
    m_ranges.clear();
    m_size = 0;
}

QJsonArray ViewIds::toJson() const
{
    QJsonArray out;
    for (const Range &r : m_ranges) {
        if (r.last - r.first >= 2) {
            out.append(QJsonArray{r.first, r.last});
        } else {
            for (qint64 id = r.first; id <= r.last; ++id)
                out.append(id);
        }
    }
    return out;
}

QByteArray ViewIds::toJsonText() const
{
    QByteArray out;
    out.reserve(2 + 24 * std::min<qsizetype>(m_ranges.size(), 64));
    out.append('[');
    auto separate = [&out]() {
        if (out.size() > 1)
            out.append(',');
    };
    for (const Range &r : m_ranges) {
        separate();
        if (r.last - r.first >= 2) {
            out.append('[').append(QByteArray::number(r.first)).append(',').append(QByteArray::number(r.last)).append(']');
        } else {
            out.append(QByteArray::number(r.first));
            for (qint64 id = r.first + 1; id <= r.last; ++id)
                out.append(',').append(QByteArray::number(id));
        }
    }
    out.append(']');
    return out;
}

std::optional<ViewIds> ViewIds::fromJson(const QJsonArray &array, QString *error, qint64 maxId)
{
    ViewIds ids;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonValue value = array.at(i);
        std::optional<qint64> first, last;
        if (value.isDouble()) {
            first = last = wholeNumber(value);
        } else if (value.isArray()) {
            const QJsonArray pair = value.toArray();
            if (pair.size() == 2) {
                first = wholeNumber(pair.at(0));
                last = wholeNumber(pair.at(1));
            }
        }
        if (!first || !last) {
            setError(error, QCoreApplication::translate("wl::ViewIds", "entry %1 of the view is neither a whole number nor a [first, last] pair").arg(i));
            return std::nullopt;
        }
        if (*first < 0 || *last > maxId) {
            setError(error, QCoreApplication::translate("wl::ViewIds", "entry %1 of the view names ids %2 to %3, outside 0 to %4").arg(i).arg(*first).arg(*last).arg(maxId));
            return std::nullopt;
        }
        if (*last < *first) {
            setError(error, QCoreApplication::translate("wl::ViewIds", "entry %1 of the view is a reversed range [%2, %3]").arg(i).arg(*first).arg(*last));
            return std::nullopt;
        }
        if (!ids.isEmpty() && *first <= ids.last()) {
            setError(error, QCoreApplication::translate("wl::ViewIds", "entry %1 of the view (ids from %2) does not come after id %3: the ids are unsorted or overlap")
                                .arg(i).arg(*first).arg(ids.last()));
            return std::nullopt;
        }
        if (!ids.appendRange(*first, *last)) {
            setError(error, QCoreApplication::translate("wl::ViewIds", "entry %1 of the view makes it hold more ids than can be counted").arg(i));
            return std::nullopt;
        }
    }
    return ids;
}

std::optional<ViewIds> ViewIds::fromJsonText(const QByteArray &text, QString *error, qint64 maxId)
{
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isArray()) {
        setError(error, QCoreApplication::translate("wl::ViewIds", "the view is not a JSON array: %1")
                            .arg(parse.error != QJsonParseError::NoError ? parse.errorString() : QCoreApplication::translate("wl::ViewIds", "another JSON value")));
        return std::nullopt;
    }
    return fromJson(doc.array(), error, maxId);
}

} // namespace wl
