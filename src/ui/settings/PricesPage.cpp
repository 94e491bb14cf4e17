#include "PricesPage.h"

#include "PriceTableModel.h"

#include <QHeaderView>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

PricesPage::PricesPage(QWidget *parent)
    : QWidget(parent)
    , m_model(new PriceTableModel(this))
    , m_view(new QTableView(this))
{
    setObjectName(u"PricesPage"_s);
    auto *intro = new QLabel(tr("What the cost of a run is computed with, in US$ per million tokens: the providers' published "
                                "prices (their price pages, as published on 2025-11-30), matched by the longest model-name prefix. Change a "
                                "cell to use your own price; changed cells are shown in bold."),
                             this);
    intro->setWordWrap(true);
    m_view->setObjectName(u"PricesView"_s);
    m_view->setModel(m_model);
    m_view->horizontalHeader()->setSectionResizeMode(PriceTableModel::ModelColumn, QHeaderView::Stretch);
    m_view->verticalHeader()->hide();
    m_view->setSelectionBehavior(QAbstractItemView::SelectItems);
    auto *reset = new QPushButton(tr("&Reset to published prices"), this);
    reset->setObjectName(u"ResetPricesButton"_s);
    reset->setAutoDefault(false); // Enter in the dialog means OK, not a reset
    connect(reset, &QPushButton::clicked, m_model, &PriceTableModel::resetAll);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(reset);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);
}

void PricesPage::setOverrides(const QJsonObject &overrides)
{
    m_model->setOverrides(overrides);
}

QJsonObject PricesPage::overrides() const
{
    return m_model->overrides();
}

} // namespace wl
