#pragma once

#include "compaction/ContextOverlays.h"
#include "compaction/ContextView.h"
#include "compaction/ViewComposition.h"
#include "model/Message.h"

#include <QAbstractTableModel>

namespace wl {

// The request a Context dock shows: the history at that moment and the overlays in force.
struct ContextSnapshot
{
    int requestIndex = -1;
    QString systemPrompt;
    QList<Message> history;     // shared (implicitly), ascending ids
    qsizetype historyEnd = 0;   // the request saw history[0, historyEnd)
    ContextOverlays overlays;
    ViewComposition composition; // what filled its window, by category
    QString windowSource;        // where that window comes from (RecordedRequests::windowOf)
};

// What the model saw: one row per message of the view.
class ContextViewModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { IndexColumn, KindColumn, RoleColumn, TokensColumn, ContentColumn, ColumnCount };
    enum Role { KindRole = Qt::UserRole + 1, CoversFromRole, CoversToRole, FullTextRole };

    explicit ContextViewModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setSnapshot(const ContextSnapshot &snapshot);
    const ContextView &view() const { return m_view; }

private:
    ContextSnapshot m_snapshot;
    ContextView m_view;
    QList<Message> m_messages;  // materialised view, same order as the items
};

// The full history at that moment, each message marked sent, offloaded or summarised.
class ContextHistoryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { IdColumn, RoleColumn, TokensColumn, StatusColumn, ContentColumn, ColumnCount };
    enum Status { Sent, Offloaded, Summarized };
    enum Role { StatusRole = Qt::UserRole + 1, MessageIdRole, FullTextRole };

    explicit ContextHistoryModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setSnapshot(const ContextSnapshot &snapshot);
    Status statusAt(int row) const;
    int rowForMessageId(qint64 id) const; // -1 when absent (binary search: ids ascend)

private:
    ContextSnapshot m_snapshot;
    qint64 m_coversUpTo = 0;
};

// One line of text for a table cell.
QString contextSnippet(const QString &text, int maxChars = 160);

} // namespace wl
