//! Statistics: Elo, nElo, LOS, pentanomial and trinomial counts, GSPRT, rating lists.
