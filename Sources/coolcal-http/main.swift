import CoolcalHTTP
import Foundation

// coolcal reads the reply; if it went away, the write fails (EPIPE) and the helper ends.
signal(SIGPIPE, SIG_IGN)
exit(HelperLoop.run(arguments: CommandLine.arguments))
