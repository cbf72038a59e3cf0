"""A socket's machinery: the token bucket that limits its messages and the latency histogram of /metrics."""

from __future__ import annotations

from erma.server.connection import Bucket, Latency


def test_the_bucket_allows_a_burst_then_its_rate() -> None:
    b = Bucket(rate=2.0, burst=3.0, now=0.0)
    assert [b.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert not b.full(0.0)
    assert b.take(0.5) and not b.take(0.5)  # one token back after half a second at 2 a second
    assert b.full(2.0)


def test_the_latency_histogram_counts_up_to_each_bound() -> None:
    h = Latency()
    for ms in (0.5, 3, 3, 4000):
        h.observe(ms)
    lines = h.lines("x")
    assert lines[0] == "# TYPE x histogram"
    assert 'x_bucket{le="1"} 1' in lines and 'x_bucket{le="5"} 3' in lines
    assert 'x_bucket{le="2500"} 3' in lines and 'x_bucket{le="+Inf"} 4' in lines
    assert lines[-1] == "x_count 4" and lines[-2] == "x_sum 4006.500"
