#pragma once

#include "store/SessionInfo.h"

#include <QAbstractTableModel>

namespace wl {

// The sessions of a database: title, workspace, last activity, message count.
class SessionListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TitleColumn, WorkspaceColumn, ActivityColumn, MessagesColumn, ColumnCount };
    enum Role { SessionIdRole = Qt::UserRole + 1, SortRole, ReadOnlyRole };

    explicit SessionListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setSessions(const QList<SessionInfo> &sessions);
    const QList<SessionInfo> &sessions() const { return m_sessions; }
    int rowForSession(const QString &id) const;

private:
    QList<SessionInfo> m_sessions;
};

} // namespace wl
