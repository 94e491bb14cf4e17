#pragma once

#include <QJsonObject>
#include <QWidget>

class QTableView;

namespace wl {

class PriceTableModel;

// The Prices page: what the cost model charges per million tokens for each model (the what-if's
// cost in the Thresholds dock and `waterline-cli evaluate`); a changed cell is kept as an override
// of the published price, and Reset goes back to the published ones.
class PricesPage : public QWidget
{
    Q_OBJECT
public:
    explicit PricesPage(QWidget *parent = nullptr);

    void setOverrides(const QJsonObject &overrides);
    QJsonObject overrides() const;

    PriceTableModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }

private:
    PriceTableModel *m_model;
    QTableView *m_view;
};

} // namespace wl
