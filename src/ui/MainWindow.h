#pragma once

#include <QMainWindow>

class QDockWidget;

namespace wl {

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Default size for a first start, before any saved geometry exists.
    static QSize defaultSize() { return {1400, 900}; }

    QDockWidget *dock(const QString &objectName) const;
    void restoreLayout();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createDocks();
    void saveLayout() const;
    void showAbout();
};

} // namespace wl
