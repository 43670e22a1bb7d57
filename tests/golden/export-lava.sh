# pinbench export: 5 jobs x placements and error anomalies
echo '<LAVA_SIGNAL_STARTTC pingpong.same-cpu>'
echo 'pingpong.same-cpu: regression: +5.25 % [+2.20, +8.47], q=0.025 against T/bb; at the boot level; resolves ±3.6 %'
echo '<LAVA_SIGNAL_ENDTC pingpong.same-cpu>'
lava-test-case pingpong.same-cpu --result fail --measurement 83.9349 --units us
lava-test-case pingpong.same-cpu.change --result fail --measurement 5.25127 --units %
echo '<LAVA_SIGNAL_STARTTC pingpong.same-core>'
echo 'pingpong.same-core: no SMT siblings'
echo '<LAVA_SIGNAL_ENDTC pingpong.same-core>'
lava-test-case pingpong.same-core --result skip
echo '<LAVA_SIGNAL_STARTTC stream.same-cpu>'
echo 'stream.same-cpu: failed: watchdog: no progress for 13 s'
echo '<LAVA_SIGNAL_ENDTC stream.same-cpu>'
lava-test-case stream.same-cpu --result fail
echo '<LAVA_SIGNAL_STARTTC stream.same-core>'
echo 'stream.same-core: not-judged: +5.02 % [+3.65, +6.41], q=0.008 against T/bb; not judged: counter-multiplexed on this side'
echo '<LAVA_SIGNAL_ENDTC stream.same-core>'
lava-test-case stream.same-core --result pass --measurement 1767.95 --units MB/s
lava-test-case stream.same-core.change --result pass --measurement 5.0205 --units %
echo '<LAVA_SIGNAL_STARTTC stream.same-core.counter-multiplexed>'
echo 'stream.same-core.counter-multiplexed: counter-multiplexed: injected by genresults'
echo '<LAVA_SIGNAL_ENDTC stream.same-core.counter-multiplexed>'
lava-test-case stream.same-core.counter-multiplexed --result fail
