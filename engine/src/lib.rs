//! `xq-engine`: Xiangqi board, legal move generation, rules judge, search and protocols.
