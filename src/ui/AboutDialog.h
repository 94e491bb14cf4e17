#pragma once

#include <QDialog>

namespace wl {

// Help > About: the version, what Waterline is, and the licences of Waterline,
// the libraries it ships against and the demo transcript.
class AboutDialog : public QDialog
{
    Q_OBJECT

public:
    explicit AboutDialog(QWidget *parent = nullptr);

    // Opens a window-modal About dialog over `parent` that deletes itself when closed.
    static void openFor(QWidget *parent);

    // The rich text shown, for tests.
    QString text() const;

private:
    QString m_text;
};

} // namespace wl
