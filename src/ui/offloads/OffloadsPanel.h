#pragma once

#include <QWidget>

#include <QHash>

class QLineEdit;
class QSortFilterProxyModel;
class QSplitter;
class QToolButton;
class QTreeView;

namespace wl {

class OffloadListModel;
class OffloadViewer;
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
    bool showCallId(const QString &callId);
    QString currentCallId() const;

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
    QSortFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QToolButton *m_locate;
    QTreeView *m_view;
    OffloadViewer *m_viewer;
    QSplitter *m_splitter;
    bool m_layoutSettled = false; // default sizes applied, or a saved state restored
    bool m_columnsSized = false;  // column widths set for the first rows, or restored
};

} // namespace wl
