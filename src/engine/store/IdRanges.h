#pragma once

#include <QJsonArray>
#include <QList>

namespace wl::IdRanges {

// Compact JSON for id lists that are mostly consecutive runs (a request's view):
// [1, [5, 9], 12] means 1, 5, 6, 7, 8, 9, 12. Order and duplicates are kept as given.
QJsonArray encode(const QList<qint64> &ids);
// False when the array holds anything but whole numbers (exact in a qint64) and [first, last]
// pairs with first <= last, or when it names more than maxIds ids in all.
bool decode(const QJsonArray &array, QList<qint64> *ids, qint64 maxIds = 10'000'000);

} // namespace wl::IdRanges
