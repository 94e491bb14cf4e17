#pragma once

#include <QWidget>

class QLabel;
class QTableView;
class QTextBrowser;

namespace wl {

class AnchorHistoryModel;

// The Anchors dock: anchors x compactions, and a word-level diff of the selected cell.
class AnchorsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AnchorsPanel(AnchorHistoryModel *model, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    QString diffHtml() const;   // what the diff pane shows (for tests)

    // Selects the column of that compaction record, if present.
    void showRecord(const QString &recordId);

Q_SIGNALS:
    void recordSelected(const QString &recordId);

private:
    void onCurrentChanged();

    AnchorHistoryModel *m_model;
    QTableView *m_table;
    QLabel *m_diffTitle;
    QTextBrowser *m_diff;
};

} // namespace wl
