#pragma once

#include <QWidget>

#include <QHash>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QSplitter;
class QToolButton;
class QTreeView;

namespace wl {

class OffloadFilter;
class OffloadListModel;
class OffloadViewer;
struct CompactionRecord;
struct OffloadRow;

// The Offloads dock: the session's offloaded results on top, the selected one in a viewer below.
class OffloadsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit OffloadsPanel(QWidget *parent = nullptr);
    ~OffloadsPanel() override;

    void setRows(const QList<OffloadRow> &rows);
    void updateReadBacks(const QHash<QString, int> &countsByCallId);

    // Selects the result of `callId` (clearing a filter that hides it) and opens it; false when there is none.
    // Neither this nor the two below emit locateMessageRequested.
    bool showCallId(const QString &callId);
    QString currentCallId() const;
    // Selects the result stored as history message `messageId`, if it was offloaded.
    bool selectMessage(qint64 messageId);
    // Lists only what `record` offloaded (a bar names the compaction and offers to show all again),
    // and opens the first of them.
    void showCompactionOffloads(const CompactionRecord &record);
    void clearCompactionFilter();
    bool filtersByCompaction() const;
    QString compactionFilterText() const;

    // Splitter sizes and list columns, for the owner to keep in QSettings.
    QByteArray saveState() const;
    bool restoreState(const QByteArray &state);

    OffloadListModel *model() const;
    QSortFilterProxyModel *proxyModel() const;
    QTreeView *view() const;
    OffloadViewer *viewer() const;
    QSplitter *splitter() const;

protected:
    void showEvent(QShowEvent *event) override;

Q_SIGNALS:
    // The user wants to see the conversation message that produced this result.
    void locateMessageRequested(const QString &callId, qint64 messageId);

private:
    void openCurrent();
    void requestLocate(const QModelIndex &proxyIndex);
    void showContextMenu(const QPoint &pos);

    OffloadListModel *m_model;
    OffloadFilter *m_proxy;
    QLineEdit *m_filter;
    QToolButton *m_locate;
    QWidget *m_compactionBar;
    QLabel *m_compactionLabel;
    QTreeView *m_view;
    OffloadViewer *m_viewer;
    QSplitter *m_splitter;
    bool m_layoutSettled = false; // default sizes applied, or a saved state restored
    bool m_columnsSized = false;  // column widths set for the first rows, or restored
};

} // namespace wl
