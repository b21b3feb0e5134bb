/**
 * `tapedeck completion bash|zsh|fish`: a completion script generated from the commander program
 * itself (commands, subcommands, options, the values an option or argument accepts), so it never
 * drifts from the CLI. The three scripts share one way of finding where the cursor is: walk the
 * words typed so far, step into each known subcommand, skip options and the value after an
 * option that takes one.
 */
import type { Command } from 'commander';
import { print } from '../output.js';

interface Node {
  /** Space-separated command path; '' for the program. */
  path: string;
  subs: { name: string; description: string }[];
  options: { flags: string[]; description: string; takesValue: boolean; choices: string[] }[];
  /** Values the first positional argument accepts, when commander knows them. */
  argChoices: string[];
}

function collect(program: Command): Node[] {
  const globals = program.options;
  const nodes: Node[] = [];
  const walk = (cmd: Command, path: string) => {
    const own = cmd === program ? globals : [...cmd.options, ...globals];
    nodes.push({
      path,
      subs: cmd.commands.map((c) => ({ name: c.name(), description: c.description() })),
      options: [
        ...own.map((o) => ({
          flags: [o.long, o.short].filter((f): f is string => !!f),
          description: o.description,
          takesValue: o.required || o.optional,
          choices: o.argChoices ?? [],
        })),
        { flags: ['--help', '-h'], description: 'display help for command', takesValue: false, choices: [] },
      ],
      argChoices: cmd.registeredArguments[0]?.argChoices ?? [],
    });
    for (const c of cmd.commands) walk(c, path ? `${path} ${c.name()}` : c.name());
  };
  walk(program, '');
  return nodes;
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A `case` over command paths, valid in bash and zsh alike. */
function caseOf(fn: string, nodes: Node[], words: (n: Node) => string[]): string {
  const arms = nodes
    .map((n) => [n.path, words(n)] as const)
    .filter(([, w]) => w.length > 0)
    .map(([p, w]) => `    ${q(p)}) echo ${q(w.join(' '))} ;;`);
  return `${fn}() {\n  case "$1" in\n${arms.join('\n')}\n  esac\n}`;
}

/** The shared helpers: subcommands, options, options taking a value, and value choices. */
function shellData(nodes: Node[]): string {
  const valueArms = nodes.flatMap((n) =>
    n.options
      .filter((o) => o.choices.length > 0)
      .flatMap((o) => o.flags.map((f) => `    ${q(`${n.path}|${f}`)}) echo ${q(o.choices.join(' '))} ;;`)),
  );
  return [
    caseOf('__tapedeck_subs', nodes, (n) => n.subs.map((s) => s.name)),
    caseOf('__tapedeck_opts', nodes, (n) => n.options.flatMap((o) => o.flags)),
    caseOf('__tapedeck_valued', nodes, (n) => n.options.filter((o) => o.takesValue).flatMap((o) => o.flags)),
    caseOf('__tapedeck_args', nodes, (n) => n.argChoices),
    `__tapedeck_values() {\n  case "$1|$2" in\n${valueArms.join('\n')}\n  esac\n}`,
  ].join('\n\n');
}

/** Sets `cmd` (the command path) and `prev` from the words before the cursor, in `$@`. */
const WALK = `__tapedeck_walk() {
  local w skip=0
  cmd='' prev=''
  for w in "$@"; do
    prev="$w"
    if ((skip)); then skip=0; continue; fi
    if [[ $w == -* ]]; then
      [[ " $(__tapedeck_valued "$cmd") " == *" $w "* ]] && skip=1
      continue
    fi
    [[ " $(__tapedeck_subs "$cmd") " == *" $w "* ]] && cmd="\${cmd:+$cmd }$w"
  done
  ((skip)) || prev=''
}`;

function bash(nodes: Node[]): string {
  return `# tapedeck completion for bash. Load it with
#   source <(tapedeck completion bash)
# or save it as ~/.local/share/bash-completion/completions/tapedeck
${shellData(nodes)}

${WALK}

_tapedeck() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd prev words
  __tapedeck_walk "\${COMP_WORDS[@]:1:COMP_CWORD-1}"
  if [[ -n $prev ]]; then
    words="$(__tapedeck_values "$cmd" "$prev")"
    [[ -n $words ]] && COMPREPLY=($(compgen -W "$words" -- "$cur"))
    return
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(__tapedeck_opts "$cmd")" -- "$cur"))
  else
    words="$(__tapedeck_subs "$cmd") $(__tapedeck_args "$cmd")"
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  fi
}
complete -o default -F _tapedeck tapedeck
`;
}

/** A `name:description` item for `_describe` (a colon inside either part is escaped). */
const zitem = (name: string, description: string) =>
  q(`${name.replace(/:/g, '\\:')}:${description.replace(/:/g, '\\:')}`);

function zsh(nodes: Node[]): string {
  const described = nodes
    .filter((n) => n.subs.length > 0)
    .map((n) => `    ${q(n.path)}) items=(${n.subs.map((s) => zitem(s.name, s.description)).join(' ')}) ;;`);
  return `#compdef tapedeck
# tapedeck completion for zsh. Load it with
#   source <(tapedeck completion zsh)
# or save it as _tapedeck in a folder of your $fpath
${shellData(nodes)}

${WALK}

_tapedeck() {
  local cur="\${words[CURRENT]}" cmd prev
  local -a items
  __tapedeck_walk "\${(@)words[2,CURRENT-1]}"
  if [[ -n $prev ]]; then
    items=(\${=$(__tapedeck_values "$cmd" "$prev")})
    (( \${#items} )) && compadd -- "\${items[@]}" || _files
    return
  fi
  if [[ $cur == -* ]]; then
    compadd -- \${=$(__tapedeck_opts "$cmd")}
    return
  fi
  case "$cmd" in
${described.join('\n')}
  esac
  if (( \${#items} )); then
    _describe -t commands 'tapedeck command' items
  else
    items=(\${=$(__tapedeck_args "$cmd")})
    (( \${#items} )) && compadd -- "\${items[@]}" || _files
  fi
}

if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _tapedeck "$@"
else
  compdef _tapedeck tapedeck
fi
`;
}

const fq = q;

function fish(nodes: Node[]): string {
  const switchOf = (fn: string, words: (n: Node) => string[]) => {
    const arms = nodes
      .map((n) => [n.path, words(n)] as const)
      .filter(([, w]) => w.length > 0)
      .map(([p, w]) => `        case ${fq(p)}\n            printf '%s\\n' ${w.map(fq).join(' ')}`);
    return `function ${fn}\n    switch "$argv[1]"\n${arms.join('\n')}\n    end\nend`;
  };
  const lines: string[] = [];
  for (const n of nodes) {
    const when = `-n ${fq(`test (__tapedeck_path) = ${fq(n.path)}`)}`;
    // where subcommands are expected, offer them and not file names
    if (n.subs.length) lines.push(`complete -c tapedeck ${when} -f`);
    for (const s of n.subs)
      lines.push(`complete -c tapedeck ${when} -a ${fq(s.name)} -d ${fq(s.description)}`);
    if (n.argChoices.length) lines.push(`complete -c tapedeck ${when} -f -a ${fq(n.argChoices.join(' '))}`);
    for (const o of n.options) {
      const names = o.flags
        .map((f) => (f.startsWith('--') ? `-l ${fq(f.slice(2))}` : `-s ${fq(f.slice(1))}`))
        .join(' ');
      const value = o.takesValue ? (o.choices.length ? ` -x -a ${fq(o.choices.join(' '))}` : ' -r') : '';
      lines.push(`complete -c tapedeck ${when} ${names}${value} -d ${fq(o.description)}`);
    }
  }
  return `# tapedeck completion for fish. Load it with
#   tapedeck completion fish | source
# or save it as ~/.config/fish/completions/tapedeck.fish
${switchOf('__tapedeck_subs', (n) => n.subs.map((s) => s.name))}

${switchOf('__tapedeck_valued', (n) => n.options.filter((o) => o.takesValue).flatMap((o) => o.flags))}

function __tapedeck_path
    set -l cmd ''
    set -l skip 0
    for w in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        if string match -q -- '-*' $w
            contains -- $w (__tapedeck_valued "$cmd"); and set skip 1
            continue
        end
        if contains -- $w (__tapedeck_subs "$cmd")
            set cmd (string trim -- "$cmd $w")
        end
    end
    echo $cmd
end

${lines.join('\n')}
`;
}

/** Print the completion script for `shell` (commander has already checked it is one we know). */
export async function runCompletion(shell: string): Promise<void> {
  const { buildProgram } = await import('../main.js');
  const program = buildProgram();
  // The catalogue's commands declare their options from its schemas on demand: all of them, now.
  await (await import('../catalog.js')).declareCatalogOptions();
  const nodes = collect(program);
  print((shell === 'zsh' ? zsh : shell === 'fish' ? fish : bash)(nodes).trimEnd());
}
