#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QToolButton;

namespace wl {

// A find bar for a read-only QPlainTextEdit: type to search, Enter / Shift+Enter or the arrows for
// next / previous (wrapping around), a case toggle, Esc to close and give the focus back.
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

    QPlainTextEdit *m_editor;
    QLineEdit *m_field;
    QToolButton *m_previous;
    QToolButton *m_next;
    QCheckBox *m_case;
    QLabel *m_status;
};

} // namespace wl
