#include "IdRanges.h"

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

bool decode(const QJsonArray &array, QList<qint64> *ids)
{
    ids->clear();
    // A run is bounded so a hostile file cannot make us allocate without end.
    constexpr qint64 kMaxRun = 10'000'000;
    for (const QJsonValue &value : array) {
        if (value.isDouble()) {
            ids->append(value.toInteger());
        } else if (value.isArray()) {
            const QJsonArray pair = value.toArray();
            if (pair.size() != 2 || !pair[0].isDouble() || !pair[1].isDouble())
                return false;
            const qint64 first = pair[0].toInteger();
            const qint64 last = pair[1].toInteger();
            // Unsigned: the difference of any first <= last fits, and a run ending at the
            // largest id must not loop past it.
            const quint64 span = quint64(last) - quint64(first);
            if (last < first || span > quint64(kMaxRun))
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
