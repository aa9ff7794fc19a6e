#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# unod on SIGHUP: applies only what changed (a parameter changed by hand
# since, and unchanged in the file, keeps the hand-set value), in an order
# the module accepts (TIMELY's band moved below its old T_low: T_high is
# refused until T_low is set), replaces a changed qdisc and removes one no
# longer listed; a broken file is
# reported with its line numbers and changes nothing; unod refuses to
# start on a broken file; --check prints the errors.
# uno-timeout: 90
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_unod.sh"

UNOD_CONF=$TB_RUN/uno.toml
unod_dummy ur0 ur1

cat > "$TB_RUN/a.toml" <<CONF
[cc.uno]
alpha_ppm = 1500
[cc.smartt]
fi = 2048
[cc.timely]
t_low_us = 50000
t_high_us = 500000
[[qdisc]]
dev = "ur0"
rate = "100mbit"
[[qdisc]]
dev = "ur1"
rate = "100mbit"
CONF
cat > "$TB_RUN/b.toml" <<CONF
[cc.uno]
alpha_ppm = 3000
[cc.smartt]
fi = 2048
[cc.timely]
t_low_us = 100
t_high_us = 200
[[qdisc]]
dev = "ur0"
rate = "300mbit"
CONF
cat > "$TB_RUN/broken.toml" <<CONF
[cc.uno]
alpha_ppm = 5000

ewma_gain_q16 = 0
[cc.smartt
CONF
printf '[cc.uno]\nalpha_ppm = 0\n\n[[qdisc]]\nrate = "fast"\n' > "$TB_RUN/broken2.toml"

# Refused at start, nothing applied.
modprobe tcp_uno
# (An earlier test may have left tcp_uno loaded with its own values.)
alpha0=$(param uno alpha_ppm)
$UNOD -c "$TB_RUN/broken2.toml" 2> "$OUT_DIR/start-broken.log"
tb_check start_refused "$?" == 1
cat "$OUT_DIR/start-broken.log"
tb_check start_errors_have_lines "$(grep -c 'broken2.toml:[25]:' "$OUT_DIR/start-broken.log")" == 2
tb_check start_not_applied "$(param uno alpha_ppm)" == "$alpha0"

# --check: every error with its line, exit 1, nothing applied.
$UNOD --check -c "$TB_RUN/broken2.toml" 2> "$OUT_DIR/check.log"
tb_check check_exit "$?" == 1
tb_check check_line_2 "$(grep -c 'broken2.toml:2:.*value out of range 1..100000' "$OUT_DIR/check.log")" == 1
tb_check check_line_5 "$(grep -c 'broken2.toml:5:.*qdisc.rate' "$OUT_DIR/check.log")" == 1
# A directory is no file, and a default CC must exist on this host (a
# built-in, a loaded one or a module the kernel can load).
$UNOD --check -c "$TB_RUN" 2> "$OUT_DIR/check-dir.log"
tb_check check_dir_exit "$?" == 1
tb_check check_dir_msg "$(grep -c 'Is a directory' "$OUT_DIR/check-dir.log")" == 1
printf '[cc]\ndefault = "nope"\n' > "$TB_RUN/nope.toml"
$UNOD --check -c "$TB_RUN/nope.toml" 2> "$OUT_DIR/check-nope.log"
tb_check check_nope_exit "$?" == 1
tb_check check_nope_line "$(grep -c "nope.toml:2:.*no congestion control 'nope'" "$OUT_DIR/check-nope.log")" == 1
for cc in cubic dctcp smartt; do
	printf '[cc]\ndefault = "%s"\n' "$cc" > "$TB_RUN/cc.toml"
	$UNOD --check -c "$TB_RUN/cc.toml" > /dev/null
	tb_check "check_default_$cc" "$?" == 0
done

cp "$TB_RUN/a.toml" "$UNOD_CONF"
unod_start "$UNOD_CONF"
tb_check a_alpha "$(param uno alpha_ppm)" == 1500
tb_check a_fi "$(param smartt fi)" == 2048
tb_check a_ur1 "$($UNOCTL -j qdisc show dev ur1 | jq length)" == 1
tb_check a_timely_t_low "$(param timely t_low_us)" == 50000
tb_check a_timely_t_high "$(param timely t_high_us)" == 500000

# By hand, behind unod's back.
$UNOCTL cc set smartt fi 100 || tb_die "unoctl cc set"

unod_reload "$TB_RUN/b.toml"
cat "$UNOD_LOG"
tb_check b_alpha "$(param uno alpha_ppm)" == 3000
tb_check b_fi_untouched "$(param smartt fi)" == 100
tb_check b_ur0_rate "$($UNOCTL -j qdisc show dev ur0 | jq '.[0].options.rate')" == 37500000
tb_check b_ur1_removed "$($UNOCTL -j qdisc show dev ur1 | jq length)" == 0
tb_check b_logged_only_changes "$(grep -c 'cc smartt fi' "$UNOD_LOG")" == 1
tb_check b_timely_t_low "$(param timely t_low_us)" == 100
tb_check b_timely_t_high "$(param timely t_high_us)" == 200
tb_check b_timely_no_error "$(grep -c 'cc timely.*Invalid' "$UNOD_LOG")" == 0

# Nothing changed: nothing done.
unod_reload "$TB_RUN/b.toml"
tb_check same_nothing "$(grep -c 'reload: nothing changed' "$UNOD_LOG")" == 1

# A broken file: errors with lines, last good state kept, unod alive.
unod_reload "$TB_RUN/broken.toml"
cat "$UNOD_LOG"
tb_check broken_logged "$(grep -c 'keeping the configuration in effect' "$UNOD_LOG")" == 1
tb_check broken_has_line "$(grep -c 'uno.toml:5:' "$UNOD_LOG")" ">=" 1
tb_check broken_alpha_kept "$(param uno alpha_ppm)" == 3000
tb_check unod_alive "$(kill -0 "$UNOD_PID" 2>/dev/null && echo 1 || echo 0)" == 1

# Fixed again: applied against the last good state.
unod_reload "$TB_RUN/a.toml"
tb_check fixed_alpha "$(param uno alpha_ppm)" == 1500
tb_check fixed_ur1_back "$($UNOCTL -j qdisc show dev ur1 | jq length)" == 1

kill -TERM "$UNOD_PID"
wait "$UNOD_PID"
tb_check sigterm_exit "$?" == 0
tb_exit
