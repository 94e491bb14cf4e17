#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QToolButton;

namespace wl {

class ProxyControl;

// The Proxy dock: the upstream and port, Start/Stop, the base URL to give the agent (with Copy),
// compact mode (on the Thresholds dock's policy),
// ready-to-paste settings for Claude Code, Codex and the SDKs, and the live traffic table. What it
// shows comes from the ProxyControl, which owns the running server.
class ProxyPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ProxyPanel(ProxyControl *control, QWidget *parent = nullptr);

    // Start when stopped, stop when running (the button; Enter in the upstream field starts).
    void toggle();

private:
    void refresh();
    void copy(const QString &text);

    ProxyControl *m_control;
    QLineEdit *m_upstream;
    QSpinBox *m_port;
    QPushButton *m_startStop;
    QLabel *m_status;
    QLineEdit *m_baseUrl;
    QToolButton *m_copyBaseUrl;
    QCheckBox *m_compact;
    QTabWidget *m_snippets;
    QToolButton *m_copySnippet;
    QTableView *m_table;
    bool m_followNewest = true;
};

} // namespace wl
