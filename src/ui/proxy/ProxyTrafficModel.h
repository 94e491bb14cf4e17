#pragma once

#include "proxy/ProxyServer.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>

namespace wl {

// The Proxy panel's live traffic: one row per exchange the proxy finished, newest last, fed by
// ProxyServer::exchangeFinished. Only what the table shows is kept (no body, no header), and only
// the latest `capacity` exchanges.
class ProxyTrafficModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Time, Method, Path, Status, FirstByte, Total, ColumnCount };
    // The exchange's error (an unreachable upstream, a client that left), empty when none.
    static constexpr int ErrorRole = Qt::UserRole + 1;

    explicit ProxyTrafficModel(QObject *parent = nullptr, int capacity = 1000);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void addExchange(const wl::ProxiedExchange &exchange);
    void clear();

private:
    struct Row
    {
        QDateTime startedAt;
        QString method;
        QString path;
        int status = 0;
        qint64 firstByteMs = -1;
        qint64 totalMs = -1;
        QString error;
    };
    QList<Row> m_rows;
    int m_capacity;
};

} // namespace wl
