/* SPDX-License-Identifier: GPL-2.0-or-later
 * The --help texts, one per verb (usage.c). */
#pragma once

extern const char *const main_help;
extern const char *const verify_help;
extern const char *const inventory_help;
extern const char *const select_help;
extern const char *const controller_help;
extern const char *const geometry_help;
extern const char *const validate_help;
extern const char *const plan_help;
extern const char *const render_help;
extern const char *const apply_help;
