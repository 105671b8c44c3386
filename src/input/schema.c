/* SPDX-License-Identifier: GPL-2.0-or-later
 * The RELAX NG schema, built into the binary so that storprov validates the
 * same way from an initramfs, a kickstart %pre or the source tree. */
__asm__(".section .rodata\n"
        ".global storprov_schema_rng\n"
        ".type storprov_schema_rng, @object\n"
        "storprov_schema_rng:\n"
        ".incbin \"" STORPROV_SCHEMA_PATH "\"\n"
        ".byte 0\n"
        ".size storprov_schema_rng, . - storprov_schema_rng\n"
        ".previous\n");
