"""The lab (实验室): what studies the game rather than serves it.

Self-play (``erma sim``), the runner of long experiments in shards, duplicate matches (``erma arena``), the
rule balance study (``erma balance``) and its report, the learning environments (PettingZoo / Gymnasium) and
the server's load test. The product (engine, bots, coach, server, store, web) never imports the lab; an
import-linter contract keeps the server and the lab independent of each other.
"""
