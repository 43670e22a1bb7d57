# SPDX-License-Identifier: GPL-2.0-only
# bash completion for pinbench(1): its commands, each command's options as
# its --help lists them, the values of --format, workloads after bench,
# job files (*.ini) after run, calibrate, nightly and bisect-check, result
# files (*.json) after compare, plot, report and export; campaign's verbs,
# --job's job files, --order's values.  Installed by make install as
# share/bash-completion/completions/pinbench.

# The options of `pinbench CMD --help` (or of `pinbench --help`): the words
# that begin with - on its lines that begin with an option.
_pinbench_options()
{
	"$1" ${2:+"$2"} --help 2>/dev/null | sed -n 's/^  *\(-.*\)/\1/p' |
		grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[ ,]//' | sort -u
}

# The values --format takes for CMD: "--format text|json|csv" in its --help.
_pinbench_formats()
{
	"$1" "$2" --help 2>/dev/null | grep -oE -- '--format [a-z|]+' | head -n 1 |
		sed 's/^--format //' | tr '|' ' '
}

# Files ending in $1, and folders (to go on into).
_pinbench_files()
{
	local IFS=$'\n'

	COMPREPLY+=($(compgen -d -- "$cur"))
	COMPREPLY+=($(compgen -f -X "!*$1" -- "$cur"))
	compopt -o filenames 2>/dev/null
}

_pinbench()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local pb=${COMP_WORDS[0]} cmd="" i

	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(_pinbench_options "$pb")" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$("$pb" --help 2>/dev/null |
				sed -n '/^commands:/,/^$/s/^  \([a-z-]\+\) .*/\1/p')" -- "$cur"))
		fi
		return 0
	fi
	case $prev in
	--format)
		COMPREPLY=($(compgen -W "$(_pinbench_formats "$pb" "$cmd")" -- "$cur"))
		return 0 ;;
	-o|--output|--history|--noise|--topology|--perf-stat|--from|--out*|--good|--bad)
		_pinbench_files ""
		return 0 ;;
	--job)
		_pinbench_files .ini
		return 0 ;;
	--state|--results)
		COMPREPLY=($(compgen -d -- "$cur"))
		return 0 ;;
	--order)
		COMPREPLY=($(compgen -W "abba random" -- "$cur"))
		return 0 ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_pinbench_options "$pb" "$cmd")" -- "$cur"))
		return 0
	fi
	case $cmd in
	run|calibrate|nightly|bisect-check)
		_pinbench_files .ini ;;
	compare|plot|report|export)
		_pinbench_files .json ;;
	campaign)
		[[ $prev == campaign ]] &&
			COMPREPLY=($(compgen -W "init step status abort report" -- "$cur")) ;;
	bench)
		[[ $prev == bench ]] && COMPREPLY=($(compgen -W "$("$pb" list 2>/dev/null |
			sed -n 's/^\([a-z0-9_]\+\) - .*/\1/p')" -- "$cur")) ;;
	esac
	return 0
}
complete -F _pinbench pinbench
