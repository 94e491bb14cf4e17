#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTimer;
class QToolButton;

namespace wl {

// A find bar for a read-only QPlainTextEdit: type to search, Enter / Shift+Enter or the arrows for
// next / previous (wrapping around), a case toggle, Esc to close and give the focus back. It says how
// many matches the loaded text holds and which one is selected ("3 of 12"), counting again as more
// text arrives.
class FindBar : public QWidget
{
    Q_OBJECT
public:
    explicit FindBar(QPlainTextEdit *editor, QWidget *parent = nullptr);

    QString text() const;
    void setText(const QString &text);
    bool caseSensitive() const;
    void setCaseSensitive(bool on);
    QString statusText() const;
    int matchCount() const { return m_count; }        // in the loaded text; at least this many when not exact
    bool isCountExact() const { return m_countExact; } // false when counting stopped at its time budget
    int currentMatch() const { return m_current; }    // 1-based; 0 when nothing is selected

    // Counting stops after this long on one search (a 100 MB text), and says "at least".
    static constexpr int kCountBudgetMs = 60;

    // Shows the bar with the editor's selection (if any) as the text, and focuses the field.
    void activate();

public Q_SLOTS:
    bool findNext();
    bool findPrevious();
    void close();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool find(bool backward, bool fromSelectionStart);
    void countMatches();
    void showStatus();

    QPlainTextEdit *m_editor;
    QLineEdit *m_field;
    QToolButton *m_previous;
    QToolButton *m_next;
    QCheckBox *m_case;
    QLabel *m_status;
    QTimer *m_recount;      // more text arrived: count again, once per burst
    QString m_note;         // "Wrapped to the start", "Not found..."
    int m_count = 0;
    int m_current = 0;
    bool m_countExact = true;
};

} // namespace wl
