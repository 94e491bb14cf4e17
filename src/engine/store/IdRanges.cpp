#include "IdRanges.h"

#include <limits>
#include <optional>

namespace wl::IdRanges {

QJsonArray encode(const QList<qint64> &ids)
{
    QJsonArray out;
    qsizetype i = 0;
    while (i < ids.size()) {
        qsizetype j = i;
        while (j + 1 < ids.size() && ids[j] < std::numeric_limits<qint64>::max() && ids[j + 1] == ids[j] + 1)
            ++j;
        if (j - i >= 2)
            out.append(QJsonArray{ids[i], ids[j]});
        else
            for (qsizetype k = i; k <= j; ++k)
                out.append(ids[k]);
        i = j + 1;
    }
    return out;
}

bool decode(const QJsonArray &array, QList<qint64> *ids, qint64 maxIds)
{
    ids->clear();
    // An id is a whole number a qint64 holds exactly (1e300, 1.5 or 2^63 is damage, not 0 or
    // a cast), and the total is bounded so a hostile file cannot make us allocate without end.
    auto id = [](const QJsonValue &v) -> std::optional<qint64> {
        // toInteger() gives its default for anything that is not such a number: two different
        // defaults agree only on a real value.
        const qint64 value = v.toInteger(0);
        if (!v.isDouble() || value != v.toInteger(1))
            return std::nullopt;
        return value;
    };
    for (const QJsonValue &value : array) {
        if (value.isDouble()) {
            const auto one = id(value);
            if (!one || ids->size() >= maxIds)
                return false;
            ids->append(*one);
        } else if (value.isArray()) {
            const QJsonArray pair = value.toArray();
            if (pair.size() != 2)
                return false;
            const auto first = id(pair[0]);
            const auto last = id(pair[1]);
            if (!first || !last || *last < *first)
                return false;
            // Unsigned: the difference of any first <= last fits, and a run ending at the
            // largest id must not loop past it.
            const quint64 span = quint64(*last) - quint64(*first);
            if (span >= quint64(maxIds - ids->size()))
                return false;
            for (quint64 k = 0; k <= span; ++k)
                ids->append(qint64(quint64(*first) + k));
        } else {
            return false;
        }
    }
    return true;
}

} // namespace wl::IdRanges
