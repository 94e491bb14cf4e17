#pragma once

#include "score/PriceTable.h"

#include <QAbstractTableModel>
#include <QJsonObject>

namespace wl {

// The cost model's prices (US$ per million tokens), one row per model prefix of the built-in
// table, editable: what differs from the published price is the user's override
// (AppSettings::priceOverrides).
class PriceTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { ModelColumn, InputColumn, CachedInputColumn, CacheWriteColumn, OutputColumn, ColumnCount };
    static constexpr int EditedRole = Qt::UserRole + 1; // bool: differs from the built-in price

    explicit PriceTableModel(QObject *parent = nullptr);

    // The built-in table with `overrides` on top.
    void setOverrides(const QJsonObject &overrides);
    // What differs from the built-in table, in AppSettings::priceOverrides' form.
    QJsonObject overrides() const;
    // Back to the published prices.
    void resetAll();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    static double &field(Price &price, int column);
    static double field(const Price &price, int column);

    PriceTable m_builtIn;
    QList<PriceTable::Entry> m_rows;
};

} // namespace wl
