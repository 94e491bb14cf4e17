#include "IdRanges.h"

#include "model/BoundedInteger.h"

#include <limits>

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
    // Ids are whole numbers in [0, 2^62] (1e300 or -5 is damage, not 0), and the total is
    // bounded so a hostile file cannot make us allocate without end.
    constexpr qint64 kMaxId = qint64(1) << 62;
    auto id = [](const QJsonValue &v) { return BoundedInteger::fromJson(v, 0, kMaxId, QString()); };
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
            const auto from = id(pair[0]);
            const auto to = id(pair[1]);
            if (!from || !to)
                return false;
            const qint64 first = *from;
            const qint64 last = *to;
            // Both lie in [0, 2^62]: the difference fits.
            const quint64 span = quint64(last) - quint64(first);
            if (last < first || qint64(span) >= maxIds - ids->size())
                return false;
            for (quint64 k = 0; k <= span; ++k)
                ids->append(qint64(quint64(first) + k));
        } else {
            return false;
        }
    }
    return true;
}

} // namespace wl::IdRanges
