#pragma once

#include <QDialog>

class QPlainTextEdit;
class QPushButton;

namespace wl {

// "Pin Selection...": the conversation paints its rows, so the text of one message is shown here
// to select the part to pin.
class PinSelectionDialog : public QDialog
{
    Q_OBJECT
public:
    PinSelectionDialog(qint64 messageId, const QString &text, QWidget *parent = nullptr);

    // The selection with line breaks as "\n" (the editor's paragraph separators replaced), so it
    // is found in the message as stored.
    QString selectedText() const;
    QPlainTextEdit *editor() const { return m_text; }

private:
    QPlainTextEdit *m_text;
    QPushButton *m_pin;
};

} // namespace wl
