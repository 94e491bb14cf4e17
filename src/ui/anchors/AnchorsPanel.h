#pragma once

#include "compaction/Anchors.h"

#include <QColor>
#include <QList>
#include <QWidget>

class QLabel;
class QPalette;
class QTabWidget;
class QTableView;
class QTextBrowser;

namespace wl {

class AnchorHistoryModel;
class AnchorItemsModel;
class AnchorLineageView;

// The Anchors dock, two tabs: the anchors' items followed through the compactions
// (AnchorLineageView), and the whole anchors x compactions with a word-level diff of the selected cell.
class AnchorsPanel : public QWidget
{
    Q_OBJECT
public:
    // Without `items`, the panel makes its own (empty) items model.
    explicit AnchorsPanel(AnchorHistoryModel *model, AnchorItemsModel *items = nullptr, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    AnchorLineageView *lineageView() const { return m_lineageView; }
    QTabWidget *tabs() const { return m_tabs; }
    QString diffHtml() const;   // what the diff pane shows (for tests)
    QLabel *legend() const { return m_legend; }

    // One entry of the legend: a change, drawn as its cells are (the model's tint over Base), in Text.
    struct LegendSwatch
    {
        AnchorChange change;
        QString label;
        QColor background;
        QColor text;
    };
    static QList<LegendSwatch> legendSwatches(const QPalette &palette);

    // Selects the column of that compaction record, if present.
    void showRecord(const QString &recordId);

Q_SIGNALS:
    void recordSelected(const QString &recordId);
    // The user followed an item's link to the message it came from.
    void messageSelected(qint64 messageId);

protected:
    void changeEvent(QEvent *event) override;

private:
    void onCurrentChanged();
    void updateLegend();

    AnchorHistoryModel *m_model;
    QTabWidget *m_tabs;
    AnchorLineageView *m_lineageView;
    QTableView *m_table;
    QLabel *m_legend;
    QLabel *m_diffTitle;
    QTextBrowser *m_diff;
};

} // namespace wl
