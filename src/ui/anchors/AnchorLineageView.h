#pragma once

#include "compaction/AnchorLineage.h"

#include <QList>
#include <QWidget>

class QCheckBox;
class QLabel;
class QTextBrowser;
class QTreeView;
class QUrl;

namespace wl {

class AnchorItemsModel;
struct AnchorSnapshot;

// The Anchors dock's item view: every line of every anchor as a row, its fate in each compaction
// as a column, a filter for the dropped ones, and the selected item's lineage below (the
// compaction that added it, each rewording as a word diff, the one that dropped it, and a link to
// the message it came from).
class AnchorLineageView : public QWidget
{
    Q_OBJECT
public:
    explicit AnchorLineageView(AnchorItemsModel *model, QWidget *parent = nullptr);

    QTreeView *tree() const { return m_tree; }
    QCheckBox *onlyDroppedBox() const { return m_onlyDropped; }
    QString lineageHtml() const; // what the lineage pane shows (for tests)

    // Scrolls the compaction's column into view (the selection stays).
    void showRecord(const QString &recordId);

    // The lineage of one item as HTML; message links are "message:<id>".
    static QString lineageHtml(const LineageItem &item, const QList<AnchorSnapshot> &snapshots);

Q_SIGNALS:
    // The compaction of the cell the user chose (the one that added the item for its text cell).
    void recordSelected(const QString &recordId);
    // The user followed the link to the item's source message.
    void messageSelected(qint64 messageId);

private:
    void onCurrentChanged();
    void onModelReset();
    void onLinkClicked(const QUrl &url);
    void updateSummary();

    AnchorItemsModel *m_model;
    QCheckBox *m_onlyDropped;
    QLabel *m_summary;
    QTreeView *m_tree;
    QTextBrowser *m_lineage;
    bool m_itemColumnSized = false;
    bool m_quiet = false;   // a current item set by the view itself, not chosen by the user
    int m_shownItem = -1;   // the item the lineage pane shows (index into the model's items)
    int m_shownColumn = 0;
};

} // namespace wl
