"""The runner's statistics and report rendering: what the shell runner measures becomes records here."""
