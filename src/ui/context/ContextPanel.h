#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTableView;

namespace wl {

class CompositionBar;
class ContextHistoryModel;
class ContextViewModel;
struct ContextSnapshot;

// The Context dock: what the model saw for the selected request, beside the full
// history at that moment; selecting a sent item selects the history it stands for.
class ContextPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ContextPanel(QWidget *parent = nullptr);

    void showSnapshot(const ContextSnapshot &snapshot);
    void clear();
    // Selects the message in the history table (clearing the selection when the request did not
    // see it), without emitting messageChosen.
    void selectMessage(qint64 messageId);

    QTableView *viewTable() const { return m_viewTable; }
    // The selected request's composition: what filled its window, by category.
    CompositionBar *compositionBar() const { return m_composition; }
    QTableView *historyTable() const { return m_historyTable; }
    ContextViewModel *viewModel() const { return m_viewModel; }
    ContextHistoryModel *historyModel() const { return m_historyModel; }
    QString detailText() const;
    QString summaryText() const;

Q_SIGNALS:
    // The user picked a message: a row of the history, or an item sent (the first message it stands for).
    void messageChosen(qint64 messageId);

private:
    void onViewItemSelected();
    void onHistoryItemSelected();

    ContextViewModel *m_viewModel;
    ContextHistoryModel *m_historyModel;
    QTableView *m_viewTable;
    QTableView *m_historyTable;
    QLabel *m_summary;
    CompositionBar *m_composition;
    QPlainTextEdit *m_detail;
    bool m_linking = false;
    bool m_following = false;   // selectMessage() at work: nothing the user chose
};

} // namespace wl
