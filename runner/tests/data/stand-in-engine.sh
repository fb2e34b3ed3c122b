#!/bin/sh
# A stand-in engine for the tests that check a config with `--dry-run`, which starts
# each engine once: it answers the handshake of either protocol and `isready`, announces
# no option, and quits when told. It plays no game.
while read -r line; do
    case $line in
        ucci) echo ucciok ;;
        uci) echo uciok ;;
        isready) echo readyok ;;
        quit) exit 0 ;;
    esac
done
