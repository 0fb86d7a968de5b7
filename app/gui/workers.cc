#include "app/gui/workers.h"

#include <QMetaType>

namespace hloscope::gui {

void RegisterMetaTypes() {
  qRegisterMetaType<std::shared_ptr<const Step>>();
  qRegisterMetaType<std::shared_ptr<const Session>>();
  qRegisterMetaType<std::shared_ptr<const PipelineRun>>();
  qRegisterMetaType<std::shared_ptr<const Module>>();
  qRegisterMetaType<std::shared_ptr<const BufferAssignment>>();
  qRegisterMetaType<std::shared_ptr<const codegen::CodegenResult>>();
  qRegisterMetaType<std::shared_ptr<const views::KernelListing>>();
  qRegisterMetaType<std::shared_ptr<const CompareBundle>>();
  qRegisterMetaType<std::shared_ptr<const WhatIfBundle>>();
  qRegisterMetaType<std::shared_ptr<const views::XlaDecisions>>();
  qRegisterMetaType<std::shared_ptr<const views::DecisionsVsXla>>();
}

}  // namespace hloscope::gui
