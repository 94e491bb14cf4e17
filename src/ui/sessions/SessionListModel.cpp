#include "SessionListModel.h"

#include <QDir>
#include <QLocale>

namespace wl {

SessionListModel::SessionListModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int SessionListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sessions.size());
}

int SessionListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SessionListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SessionInfo &s = m_sessions.at(index.row());
    const QDateTime activity = s.lastActivityAt.isValid() ? s.lastActivityAt : s.updatedAt;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TitleColumn: return s.title.isEmpty() ? tr("Untitled session") : s.title;
        case WorkspaceColumn:
            if (!s.readOnly)
                return QDir::toNativeSeparators(s.workspace);
            return s.isRecordedTraffic() ? tr("recorded by the proxy, read-only") : tr("imported, read-only");
        case ActivityColumn: return QLocale().toString(activity.toLocalTime(), QLocale::ShortFormat);
        case MessagesColumn: return QLocale().toString(s.messageCount);
        }
        break;
    case Qt::ToolTipRole:
        if (s.readOnly && s.isRecordedTraffic())
            return tr("%1\nRecorded from an agent's traffic through the proxy, read-only: Continue\u2026 chooses where "
                      "an agent works on it\n%2 messages, %3 requests\nId: %4")
                .arg(s.title).arg(s.messageCount).arg(s.requestCount).arg(s.id);
        if (s.readOnly)
            return tr("%1\nImported and read-only: Continue\u2026 chooses where an agent works on it\n%2 messages, %3 requests\nId: %4")
                .arg(s.title).arg(s.messageCount).arg(s.requestCount).arg(s.id);
        return tr("%1\nWorkspace: %2\n%3 messages, %4 requests\nId: %5")
            .arg(s.title, QDir::toNativeSeparators(s.workspace)).arg(s.messageCount).arg(s.requestCount).arg(s.id);
    case Qt::TextAlignmentRole:
        return index.column() == MessagesColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case SessionIdRole:
        return s.id;
    case ReadOnlyRole:
        return s.readOnly;
    case SortRole:
        switch (index.column()) {
        case TitleColumn: return s.title;
        case WorkspaceColumn: return s.readOnly ? QString() : s.workspace;
        case ActivityColumn: return activity;
        case MessagesColumn: return s.messageCount;
        }
        break;
    }
    return {};
}

QVariant SessionListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TitleColumn: return tr("Session");
    case WorkspaceColumn: return tr("Workspace");
    case ActivityColumn: return tr("Last activity");
    case MessagesColumn: return tr("Messages");
    }
    return {};
}

void SessionListModel::setSessions(const QList<SessionInfo> &sessions)
{
    beginResetModel();
    m_sessions = sessions;
    endResetModel();
}

int SessionListModel::rowForSession(const QString &id) const
{
    for (qsizetype i = 0; i < m_sessions.size(); ++i)
        if (m_sessions.at(i).id == id)
            return int(i);
    return -1;
}

} // namespace wl
