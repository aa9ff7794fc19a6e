// SPDX-License-Identifier: GPL-2.0
//
// unod: carry out a ConfigPlan on the running kernel, and keep track of
// what is in effect.
#pragma once

#include "config.h"

namespace unod {

enum class Prio { Err = 3, Warning = 4, Notice = 5, Info = 6 };

// One line on stderr; with a "<N>" priority prefix under systemd.
void log(Prio prio, const std::string &msg);

// Carry out `plan` (from plan_config(applied, next)) and update `applied`
// to what is now in effect: `next` except what failed, which keeps its
// previous state so that the next reload tries it again. Returns the
// number of failures, each logged.
int apply_plan(const uno::ConfigPlan &plan, const uno::Config &next, uno::Config &applied);

} // namespace unod
