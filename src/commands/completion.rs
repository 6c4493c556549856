//! `duelsim completions bash`: a bash completion written from the argument parser's own
//! description, that completes what belongs where: subcommands first, a flag only after a
//! dash, scenario files (`.toml`, and folders to reach them) where a scenario goes, folders
//! after `-o`, ruleset ids after `new` and `rulesets`, and the choices of a flag that has them.

use clap::{Arg, Command, ValueHint};
use std::fmt::Write as _;

/// What bash offers for a value.
fn offer(arg: &Arg, ruleset_ids: &[&str]) -> String {
    let choices: Vec<String> = arg
        .get_possible_values()
        .iter()
        .map(|v| v.get_name().to_owned())
        .collect();
    let value_name = arg
        .get_value_names()
        .and_then(|n| n.first())
        .map(ToString::to_string)
        .unwrap_or_default();
    if !choices.is_empty() {
        format!("_duelsim_words '{}'", choices.join(" "))
    } else if value_name == "RULESET" {
        format!("_duelsim_words '{}'", ruleset_ids.join(" "))
    } else {
        match arg.get_value_hint() {
            ValueHint::DirPath => "_duelsim_folders".to_owned(),
            ValueHint::FilePath => "_duelsim_scenarios".to_owned(),
            _ => "COMPREPLY=()".to_owned(),
        }
    }
}

/// The flags of a command that take a value, and what each offers.
fn flag_values(out: &mut String, name: &str, command: &Command, ruleset_ids: &[&str]) {
    for arg in command
        .get_arguments()
        .filter(|a| !a.is_positional() && a.get_action().takes_values())
    {
        // A global flag (of no command) may come after any command.
        let command = if name.is_empty() {
            "*' ".to_owned()
        } else {
            format!("'{name} ")
        };
        let mut spellings = Vec::new();
        if let Some(short) = arg.get_short() {
            spellings.push(format!("{command}-{short}'"));
        }
        if let Some(long) = arg.get_long() {
            spellings.push(format!("{command}--{long}'"));
        }
        let _ = writeln!(
            out,
            "        {}) {}; return ;;",
            spellings.join("|"),
            offer(arg, ruleset_ids)
        );
    }
}

/// The bash completion script of `command` (the whole `duelsim`).
pub fn bash_completion(command: &Command, ruleset_ids: &[&str]) -> String {
    let subcommands: Vec<&Command> = command
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .collect();
    let names: Vec<&str> = subcommands.iter().map(|s| s.get_name()).collect();
    let mut values = String::new();
    flag_values(&mut values, "", command, ruleset_ids);
    let mut flags = String::new();
    let mut takes_value = String::new();
    let mut positionals = String::new();
    for sub in &subcommands {
        let name = sub.get_name();
        flag_values(&mut values, name, sub, ruleset_ids);
        let mut spelled = vec!["--help".to_owned(), "--color".to_owned()];
        let mut valued = vec!["--color".to_owned()];
        for arg in sub.get_arguments().filter(|a| !a.is_positional()) {
            let names: Vec<String> = arg
                .get_long()
                .map(|l| format!("--{l}"))
                .into_iter()
                .chain(arg.get_short().map(|s| format!("-{s}")))
                .collect();
            if arg.get_action().takes_values() {
                valued.extend(names.iter().cloned());
            }
            spelled.extend(arg.get_long().map(|l| format!("--{l}")));
        }
        let _ = writeln!(flags, "        {name}) flags='{}' ;;", spelled.join(" "));
        let _ = writeln!(
            takes_value,
            "        {name}) valued=' {} ' ;;",
            valued.join(" ")
        );
        for (index, arg) in sub
            .get_arguments()
            .filter(|a| a.is_positional())
            .enumerate()
        {
            let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
            let at = if many {
                format!("'{name} {index}'|'{name} '[{}-9]*", index + 1)
            } else {
                format!("'{name} {index}'")
            };
            let _ = writeln!(
                positionals,
                "        {at}) {}; return ;;",
                offer(arg, ruleset_ids)
            );
        }
    }
    format!(
        r#"# bash completion for duelsim, from `duelsim completions bash`.
_duelsim_words() {{
    COMPREPLY=($(compgen -W "$1" -- "$cur"))
}}
_duelsim_folders() {{
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -d -- "$cur"))
}}
_duelsim_scenarios() {{
    compopt -o filenames 2>/dev/null
    local IFS=$'\n'
    COMPREPLY=($(compgen -f -X '!*.toml' -- "$cur") $(compgen -d -- "$cur"))
}}
_duelsim() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    local command="" position=0 valued=' --color ' flags i word
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${{COMP_WORDS[i]}}"
        if [[ -z $command ]]; then
            case "$word" in
                --color) ((i++)) ;;
                -*) ;;
                *) command="$word"
                   case "$command" in
{takes_value}                   esac ;;
            esac
        elif [[ $valued == *" $word "* ]]; then
            ((i++))
        elif [[ $word != -* ]]; then
            ((position++))
        fi
    done
    case "$command $prev" in
{values}    esac
    if [[ -z $command ]]; then
        _duelsim_words '{names} --color --help --version'
        return
    fi
    if [[ $cur == -* ]]; then
        case "$command" in
{flags}        esac
        _duelsim_words "$flags"
        return
    fi
    case "$command $position" in
{positionals}    esac
    COMPREPLY=()
}}
complete -F _duelsim duelsim
"#,
        names = names.join(" "),
    )
}
