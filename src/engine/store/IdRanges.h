#pragma once

#include <QJsonArray>
#include <QList>

namespace wl::IdRanges {

// Compact JSON for id lists that are mostly consecutive runs (a request's view):
// [1, [5, 9], 12] means 1, 5, 6, 7, 8, 9, 12. Order and duplicates are kept as given.
QJsonArray encode(const QList<qint64> &ids);
// False when the array holds anything but integers and [first, last] pairs with first <= last.
bool decode(const QJsonArray &array, QList<qint64> *ids);

} // namespace wl::IdRanges
