/* playcatch: play catch with the machine, the `playcatch` feature driven from C.
 *
 * A push host: the library calls our handlers with each command and each new state.
 * The only effect is the machine's throw-back timer ({"seconds":1}), which this
 * program performs with a real timer (timerfd) in a poll() loop; when it fires, the
 * event goes back to the library through the effect's id.
 *
 *   ./playcatch                          type "throw" to throw, end the input to stop
 *   printf 'throw\nthrow\n' | ./playcatch --seconds 0.05
 *   ./playcatch --state '{"ball":"machine","throwCount":1}'   resume mid-game
 *
 * The human's throws are read only while the human holds the ball, so piped input
 * plays one throw per turn. PLAYCATCH_SECONDS in the environment works like --seconds.
 */
#define _GNU_SOURCE
#include <corelogic.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "json.h"

typedef struct {
    corelogic_system system;
    int timer_fd;
    uint64_t timer_effect;      /* the running throwTimer effect, 0 when none */
    int human_has_ball;
    int64_t throws;
    double seconds_override;    /* < 0: use the request's seconds */
} game;

static json_value *parse(const char *text) {
    char error[128];
    json_value *v = json_parse(text, strlen(text), error, sizeof error);
    if (v == NULL) fprintf(stderr, "playcatch: unexpected JSON from the library (%s): %s\n", error, text);
    return v;
}

static void arm_timer(game *g, double seconds) {
    struct itimerspec when = {0};
    if (seconds <= 0) seconds = 1e-9;               /* zero would disarm the timer */
    when.it_value.tv_sec = (time_t)seconds;
    when.it_value.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9);
    if (timerfd_settime(g->timer_fd, 0, &when, NULL) != 0) perror("playcatch: timerfd_settime");
}

static void disarm_timer(game *g) {
    struct itimerspec never = {0};
    timerfd_settime(g->timer_fd, 0, &never, NULL);
}

/* Command handler: runs inside a library call, on this thread. It only records what
 * to do; performing the effect (waiting) happens in the poll loop. */
static void on_command(void *context, const char *command_json) {
    game *g = context;
    json_value *command = parse(command_json);
    if (command == NULL) return;
    const json_value *start = json_get(command, "start");
    const json_value *cancel = json_get(command, "cancel");
    if (start != NULL) {
        const json_value *id = json_get(start, "id");
        const json_value *feedback = json_get(start, "feedback");
        const json_value *seconds = json_get(json_get(start, "request"), "seconds");
        if (id != NULL && id->kind == JSON_INT && feedback != NULL && feedback->kind == JSON_STRING
            && strcmp(feedback->string, "throwTimer") == 0 && seconds != NULL) {
            double wait = g->seconds_override >= 0 ? g->seconds_override : seconds->number;
            g->timer_effect = (uint64_t)id->integer;
            arm_timer(g, wait);
            printf("  machine: caught it, throwing back in %g s (effect %llu)\n", wait,
                   (unsigned long long)g->timer_effect);
        } else {
            fprintf(stderr, "playcatch: a command this program does not know: %s\n", command_json);
        }
    } else if (cancel != NULL && cancel->kind == JSON_INT) {
        if ((uint64_t)cancel->integer == g->timer_effect) {
            disarm_timer(g);
            g->timer_effect = 0;
        }
        printf("  effect %lld cancelled\n", (long long)cancel->integer);
    }
    json_free(command);
}

/* State handler: the state after each step. */
static void on_state(void *context, const char *state_json) {
    game *g = context;
    json_value *state = parse(state_json);
    if (state == NULL) return;
    const json_value *ball = json_get(state, "ball");
    const json_value *count = json_get(state, "throwCount");
    g->human_has_ball = ball != NULL && ball->kind == JSON_STRING && strcmp(ball->string, "human") == 0;
    if (count != NULL && count->kind == JSON_INT) g->throws = count->integer;
    printf("  state: %s\n", state_json);
    json_free(state);
}

/* Hands the commands of a batch to the command handler: the creation batch is not
 * replayed to handlers, so a resumed game's running timer is started from here. */
static void replay_batch(game *g, const char *batch_json) {
    json_value *batch = parse(batch_json);
    if (batch == NULL) return;
    const json_value *state = json_get(batch, "state");
    char *state_text = json_write(state);
    if (state_text != NULL) on_state(g, state_text);
    free(state_text);
    const json_value *effects = json_get(batch, "effects");
    for (size_t i = 0; effects != NULL && i < effects->length; i++) {
        char *command = json_write(effects->items[i]);
        if (command != NULL) on_command(g, command);
        free(command);
    }
    json_free(batch);
}

/* Reads one line of standard input into `line`, using `buffer` for what read() returned
 * beyond it. Returns 1 with a line, 0 when no complete line is buffered yet. */
typedef struct { char bytes[4096]; size_t length; int eof; } input;

static int take_line(input *in, char *line, size_t size) {
    char *newline = memchr(in->bytes, '\n', in->length);
    size_t n;
    if (newline != NULL) n = (size_t)(newline - in->bytes);
    else if (in->eof && in->length > 0) n = in->length;          /* last line without '\n' */
    else if (in->length == sizeof in->bytes) n = in->length;     /* overlong: take as is */
    else return 0;
    size_t copied = n < size - 1 ? n : size - 1;
    memcpy(line, in->bytes, copied);
    line[copied] = '\0';
    if (copied > 0 && line[copied - 1] == '\r') line[copied - 1] = '\0';
    size_t consumed = newline != NULL ? n + 1 : n;
    memmove(in->bytes, in->bytes + consumed, in->length - consumed);
    in->length -= consumed;
    return 1;
}

static int send_event(game *g, const char *event) {
    int status = corelogic_system_send(g->system, event, NULL);
    if (status != CORELOGIC_OK) {
        fprintf(stderr, "playcatch: send %s: %s: %s\n", event, corelogic_status_name(status), corelogic_last_error());
    }
    return status;
}

static void usage(void) {
    fprintf(stderr, "usage: playcatch [--seconds S] [--state JSON]\n"
                    "  reads 'throw' (or 'quit') lines from standard input\n");
}

int main(int argc, char **argv) {
    game g = {.timer_fd = -1, .seconds_override = -1};
    const char *first_state = NULL;
    const char *env = getenv("PLAYCATCH_SECONDS");
    if (env != NULL && *env != '\0') g.seconds_override = strtod(env, NULL);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) g.seconds_override = strtod(argv[++i], NULL);
        else if (strcmp(argv[i], "--state") == 0 && i + 1 < argc) first_state = argv[++i];
        else { usage(); return 2; }
    }
    if (corelogic_abi_version() != CORELOGIC_ABI_VERSION) {
        fprintf(stderr, "playcatch: built for ABI %d, the library has ABI %d\n", CORELOGIC_ABI_VERSION, corelogic_abi_version());
        return 1;
    }

    g.timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    if (g.timer_fd < 0) { perror("playcatch: timerfd_create"); return 1; }

    char *batch = NULL;
    int status = corelogic_system_new("playcatch", first_state, &g.system, &batch);
    if (status != CORELOGIC_OK) {
        fprintf(stderr, "playcatch: %s: %s\n", corelogic_status_name(status), corelogic_last_error());
        close(g.timer_fd);
        return 1;
    }
    corelogic_system_on_command(g.system, on_command, &g);
    corelogic_system_on_state(g.system, on_state, &g);
    replay_batch(&g, batch);
    corelogic_free(batch);

    int interactive = isatty(STDIN_FILENO);
    input in = {.length = 0};
    int quit = 0;
    while (!quit) {
        if (g.human_has_ball) {
            char line[256];
            if (take_line(&in, line, sizeof line)) {
                if (strcmp(line, "throw") == 0) {
                    printf("you: throw\n");
                    send_event(&g, "\"humanThrows\"");
                } else if (strcmp(line, "quit") == 0) {
                    quit = 1;
                } else if (line[0] != '\0') {
                    printf("say 'throw' or 'quit'\n");
                }
                continue;
            }
            if (in.eof) break;                        /* your ball, and nothing more to read */
            if (interactive) { printf("your ball> "); fflush(stdout); }
        }

        struct pollfd fds[2];
        nfds_t count = 0;
        if (g.human_has_ball && !in.eof) fds[count++] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
        if (g.timer_effect != 0) fds[count++] = (struct pollfd){.fd = g.timer_fd, .events = POLLIN};
        if (count == 0) break;                        /* nothing can happen any more */
        fflush(stdout);
        if (poll(fds, count, -1) < 0) {
            if (errno == EINTR) continue;
            perror("playcatch: poll");
            break;
        }
        for (nfds_t i = 0; i < count; i++) {
            if (fds[i].revents == 0) continue;
            if (fds[i].fd == g.timer_fd) {
                uint64_t expirations;
                if (read(g.timer_fd, &expirations, sizeof expirations) != (ssize_t)sizeof expirations) continue;
                uint64_t effect = g.timer_effect;
                printf("  timer of effect %llu fired\nmachine: throws it back\n", (unsigned long long)effect);
                /* The effect's result goes back through its id. The reducer gives the ball
                 * to the human, so the engine cancels the (finished) timer: our handler
                 * sees that cancel during this very call. */
                status = corelogic_system_deliver(g.system, effect, "\"machineThrows\"", NULL);
                if (status == CORELOGIC_STALE) printf("  (effect %llu was no longer running: dropped)\n", (unsigned long long)effect);
                else if (status != CORELOGIC_OK) fprintf(stderr, "playcatch: deliver: %s\n", corelogic_last_error());
            } else {
                ssize_t n = read(STDIN_FILENO, in.bytes + in.length, sizeof in.bytes - in.length);
                if (n > 0) in.length += (size_t)n;
                else if (n == 0 || errno != EINTR) in.eof = 1;
            }
        }
    }

    printf("game over after %lld throws\n", (long long)g.throws);
    corelogic_system_free(g.system);
    close(g.timer_fd);
    return 0;
}
