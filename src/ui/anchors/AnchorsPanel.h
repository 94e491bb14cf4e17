#pragma once

#include "compaction/Anchors.h"

#include <QColor>
#include <QList>
#include <QWidget>

class QLabel;
class QPalette;
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

protected:
    void changeEvent(QEvent *event) override;

private:
    void onCurrentChanged();
    void updateLegend();

    AnchorHistoryModel *m_model;
    QTableView *m_table;
    QLabel *m_legend;
    QLabel *m_diffTitle;
    QTextBrowser *m_diff;
};

} // namespace wl
