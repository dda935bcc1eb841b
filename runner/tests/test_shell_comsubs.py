"""The runner's shell never puts two command substitutions in one command.

Bash 5.2 (Debian 12's) parses a command substitution's text again when it expands it, and runs pending traps
from inside that parser. A signal that arrives while the first of two substitutions in one command runs
(`printf '%s %s' "$(slow)" "$(other)"`, or `local a=$(slow) b=$(other)`) is then handled while the second
is parsed: the trap's own text fails to parse ("trap: line 2: unexpected EOF while looking for matching
`)'"), and the runner exits with status 2 instead of running its interrupt handler. Reproduced 40 times in
40 with a TERM sent while such a command ran, never with one substitution per command. So each
substitution goes into a variable of its own first.
"""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNNER_SHELL = [ROOT / "runner" / "rpcmatrix", *sorted((ROOT / "runner" / "lib").glob("*.sh"))]


def logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, text) of each line, continuation lines joined."""
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        first, line = i + 1, lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i].strip()
        out.append((first, line))
        i += 1
    return out


def substitutions_per_command(line: str) -> int:
    """The most command substitutions that one command of the line expands at its own level (nested ones
    are parsed with their outer one, so they do not count), commands being split at ; && || and |."""
    counts, count, stack, quote, i = [], 0, [], None, 0
    while i < len(line):
        c = line[i]
        if quote == "'":
            quote = None if c == "'" else quote
        elif c == "\\":
            i += 1
        elif c == "'" and quote is None and not stack:
            quote = "'"
        elif c == "#" and quote is None and not stack and (i == 0 or line[i - 1] in " \t"):
            break
        elif line.startswith("$((", i):
            stack.append("arith")
            i += 2
        elif line.startswith("$(", i):
            count += "sub" not in stack
            stack.append("sub")
            i += 1
        elif c == "(" and stack:
            stack.append("paren")
        elif c == ")" and stack:
            if stack.pop() == "arith" and line.startswith(")", i + 1):
                i += 1
        elif c == '"' and not stack:
            quote = None if quote == '"' else '"'
        elif not stack and quote is None and (line.startswith("&&", i) or line.startswith("||", i) or c in ";|"):
            counts.append(count)
            count = 0
        i += 1
    return max(counts + [count])


def test_the_check_finds_the_forms_that_break_traps():
    assert substitutions_per_command('printf \'%s %s\\n\' "$(slow)" "$(other "$x")" >&2') == 2
    assert substitutions_per_command('local a=$(slow) b=$(other)') == 2
    assert substitutions_per_command('record "$d" "$([[ $rc == 3 ]] && echo t || echo e)" "x: $E$(note)"') == 2
    # one per command, nested, arithmetic, quoted or commented: safe
    assert substitutions_per_command('a=$(slow); b=$(other) && c=$(third)') == 1
    assert substitutions_per_command('dir=$(cd "$(dirname "$0")" && pwd)') == 1
    assert substitutions_per_command('n=$(($(wc -l <f) * 2))') == 1
    assert substitutions_per_command("echo '$(a) $(b)'  # $(c) $(d)") == 0
    joined = logical_lines('printf "%s %s" "$(slow)" \\\n  "$(other)"\necho ok')
    assert joined[0][0] == 1 and substitutions_per_command(joined[0][1]) == 2


def test_no_runner_command_has_two_substitutions():
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()[:120]}"
             for path in RUNNER_SHELL for n, line in logical_lines(path.read_text())
             if substitutions_per_command(line) > 1]
    assert not found, "assign each command substitution to a variable of its own first:\n" + "\n".join(found)
