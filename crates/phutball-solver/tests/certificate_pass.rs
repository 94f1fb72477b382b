//! Format version 2's `pass` line against the checker (docs/certificates.md):
//! a loser's placements outside a zone answered by one proof of the same
//! position with the winner to move. Valid certificates check and round
//! trip; altered ones are rejected with the error that names the fault;
//! version-1 certificates read and check as before.

use std::fs::File;

use phutball::{Bitboard, Budget, Move, Point, Position, Side};
use phutball_solver::{
    prove_within, Certificate, CertificateError, CertificateNode, PassAnswer, Target,
};

/// 5x7, ball on C4, men on C5 and C6, Eks to move: Ohs threatens C4-C7.
/// The pass line answers 31 of Eks's 32 placements with node 1's C4-C7;
/// C7, in the zone that jump depends on, has its own reply (C4-C8); the
/// jump C4-C7 is Eks's own goal.
const THREAT: &str = "\
phutball-proof 2
rules
winner O
node 0 5/2#2/2#2/2@2/5/5/5 X
reply C7 2
pass 1 C5,C6,C7
node 1 5/2#2/2#2/2@2/5/5/5 O
move C4-C7 goal
node 2 2#2/2#2/2#2/2@2/5/5/5 O
move C4-C8 goal
end
";

/// 1x3, ball on A2, a man on A3, Eks to move: the root has only its pass
/// line (A1 is outside the zone; A2-A4 is Eks's own goal).
const ONLY_PASS: &str = "\
phutball-proof 2
rules
winner O
node 0 #/@/1 X
pass 1 A3
node 1 #/@/1 O
move A2-A4 goal
end
";

fn cert(text: &str) -> Certificate {
    text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn check(c: &Certificate) -> Result<u32, CertificateError> {
    c.check(&Budget::default()).map(|p| p.plies)
}

fn point(name: &str) -> Point {
    name.parse().unwrap()
}

fn zone(names: &str) -> Bitboard {
    names.split(',').map(point).collect()
}

#[test]
fn a_pass_line_answers_every_placement_outside_its_zone() {
    let c = cert(THREAT);
    let checked = c.check(&Budget::default()).unwrap();
    assert_eq!(
        (checked.winner, checked.plies, checked.nodes),
        (Side::Ohs, 2, 3)
    );
    assert_eq!(c.to_string(), THREAT);
    assert_eq!(c.to_string().parse::<Certificate>().unwrap(), c);
    assert_eq!(
        Certificate::read_within(THREAT.as_bytes(), &Budget::default()).unwrap(),
        c
    );
    // A zone larger than needed is fine, but a placement in it needs a
    // reply of its own.
    let larger = THREAT.replace("pass 1 C5,C6,C7", "pass 1 C4,C5,C6,C7");
    assert_eq!(check(&cert(&larger)), Ok(2));
    let larger = THREAT.replace("pass 1 C5,C6,C7", "pass 1 A1,C5,C6,C7");
    assert_eq!(
        check(&cert(&larger)),
        Err(CertificateError::MissingReply {
            node: 0,
            mv: Move::Place(point("A1")),
        })
    );
    // Without the pass line, the placements it answered are missing (and
    // node 1 is reached by nothing).
    let mut without = c.clone();
    without.nodes[0].pass = None;
    assert!(matches!(
        check(&without),
        Err(CertificateError::MissingReply { node: 0, .. })
    ));
    // An else line may answer the placements in the zone instead.
    let with_else = THREAT
        .replace("reply C7 2\n", "else C4-C8\n")
        .replace("node 2 2#2/2#2/2#2/2@2/5/5/5 O\nmove C4-C8 goal\n", "");
    assert_eq!(check(&cert(&with_else)), Ok(2));
    let with_wrong_else = with_else.replace("else C4-C8", "else C4-C7");
    assert_eq!(
        check(&cert(&with_wrong_else)),
        Err(CertificateError::ElseDoesNotScore {
            node: 0,
            mv: Move::Place(point("C7")),
            answer: "C4-C7".parse().unwrap(),
        })
    );
}

#[test]
fn a_pass_line_counts_a_placement_and_its_targets_line() {
    let c = cert(ONLY_PASS);
    assert_eq!(check(&c), Ok(2));
    assert_eq!(c.to_string(), ONLY_PASS);
}

#[test]
fn a_dropped_reply_inside_the_zone_is_missing() {
    let dropped = cert(&THREAT.replace("reply C7 2\n", ""));
    assert_eq!(
        check(&dropped),
        Err(CertificateError::MissingReply {
            node: 0,
            mv: Move::Place(point("C7")),
        })
    );
}

#[test]
fn a_wrong_move_is_rejected() {
    // The pass target's jump lands on C7, not C6.
    let bad = cert(&THREAT.replace("move C4-C7 goal", "move C4-C6 goal"));
    assert!(
        matches!(
            check(&bad),
            Err(CertificateError::IllegalMove { node: 1, .. })
        ),
        "{:?}",
        check(&bad)
    );
    // A reply whose outcome is not its target's position.
    let bad = cert(&THREAT.replace("reply C7 2", "reply D7 2"));
    assert!(matches!(
        check(&bad),
        Err(CertificateError::WrongPosition {
            node: 0,
            target: 2,
            ..
        })
    ));
    // A winner's move that does not score.
    let bad = cert(&THREAT.replace("move C4-C7 goal", "move A1 goal"));
    assert!(matches!(
        check(&bad),
        Err(CertificateError::NotAGoal { node: 1, .. })
    ));
}

#[test]
fn a_zone_that_leaves_out_a_point_of_its_targets_proof_is_rejected() {
    // C7's reply dropped and C7 out of the zone: every placement is
    // covered as the file claims, but node 1's C4-C7 depends on C7.
    let bad = THREAT
        .replace("reply C7 2\n", "")
        .replace("pass 1 C5,C6,C7", "pass 1 C5,C6")
        .replace("node 2 2#2/2#2/2#2/2@2/5/5/5 O\nmove C4-C8 goal\n", "");
    let e = check(&cert(&bad)).unwrap_err();
    assert_eq!(
        e,
        CertificateError::ZoneLeavesOut {
            node: 0,
            target: 1,
            point: point("C7"),
        }
    );
    assert_eq!(
        e.to_string(),
        "node 0: the pass line's zone leaves out C7, which node 1's proof depends on"
    );
    // The stated zone must hold the target's whole zone, even its points
    // no placement can take (C5 and C6 hold men) and those with a reply.
    for (stated, left_out) in [("C6,C7", "C5"), ("C5,C7", "C6"), ("C5,C6", "C7")] {
        let bad = THREAT.replace("pass 1 C5,C6,C7", &format!("pass 1 {stated}"));
        assert_eq!(
            check(&cert(&bad)),
            Err(CertificateError::ZoneLeavesOut {
                node: 0,
                target: 1,
                point: point(left_out),
            })
        );
    }
    let empty = THREAT.replace("pass 1 C5,C6,C7", "pass 1");
    assert!(matches!(
        check(&cert(&empty)),
        Err(CertificateError::ZoneLeavesOut { node: 0, .. })
    ));
}

#[test]
fn a_pass_target_must_be_this_position_with_the_winner_to_move() {
    // Node 2 has a man more.
    let bad = cert(&THREAT.replace("pass 1", "pass 2"));
    assert_eq!(
        check(&bad),
        Err(CertificateError::WrongPassPosition {
            node: 0,
            target: 2,
            winner: Side::Ohs,
        })
    );
    // Node 1 with Eks to move: the same board, the wrong side.
    let mut bad = cert(THREAT);
    bad.nodes[1].position = bad.nodes[0].position;
    bad.nodes[1].moves.clear();
    assert!(matches!(
        check(&bad),
        Err(CertificateError::WrongPassPosition {
            node: 0,
            target: 1,
            ..
        })
    ));
    // Not a later node.
    for (target, error) in [(0, (0, 0, 2)), (3, (0, 3, 2))] {
        let bad = cert(&THREAT.replace("pass 1", &format!("pass {target}")));
        let (node, target, last) = error;
        assert_eq!(
            check(&bad),
            Err(CertificateError::BadPassTarget { node, target, last })
        );
    }
    // A pass line where the winner is to move (the text reader refuses it).
    let mut bad = cert(THREAT);
    bad.nodes[1].pass = Some(PassAnswer {
        target: 2,
        zone: Bitboard::EMPTY,
    });
    assert_eq!(
        check(&bad),
        Err(CertificateError::PassAtWinnersNode { node: 1 })
    );
    assert!(bad.to_string().parse::<Certificate>().is_err());
}

/// 5x7, ball on C4, a man on C5, Eks to move.
const DEEP_ROOT: &str = "5/5/2#2/2@2/5/5/5 X";

/// The deep certificate's pass proof (a version-1 certificate of its
/// own): Ohs places C6 and threatens C4-C7, answered by C4-C8 after
/// Eks's C7.
const DEEP_PASS: &str = "\
phutball-proof 1
rules
winner O
node 0 5/5/2#2/2@2/5/5/5 O
move C6 1
node 1 5/2#2/2#2/2@2/5/5/5 X
reply C7 2
else C4-C7
node 2 2#2/2#2/2#2/2@2/5/5/5 O
move C4-C8 goal
end
";

/// The zone of `DEEP_PASS`'s proof by the rules of docs/certificates.md:
/// C6, node 1's jump zone (from C4 the neighbours and the line C5, C6,
/// C7; from the landings C6, C7 and C5 their neighbours: columns B to D,
/// rows 3 to 7), which holds the zones of C4-C8 and of every C4-C7.
const DEEP_ZONE: &str = "B3,C3,D3,B4,C4,D4,B5,C5,D5,B6,C6,D6,B7,C7,D7";

/// `DEEP_ROOT`'s proof: a pass line to `DEEP_PASS`, and a reply for each
/// of Eks's moves the zone does not answer (13 placements and C4-C6), each
/// proved by the prover.
struct Deep {
    root: Position,
    pass: Certificate,
    replies: Vec<(Move, Certificate)>,
}

impl Deep {
    fn new() -> Deep {
        let root: Position = DEEP_ROOT.parse().unwrap();
        let zone = zone(DEEP_ZONE);
        let budget = Budget::default().with_work_limit(2_000_000);
        let replies: Vec<(Move, Certificate)> = root
            .legal_moves()
            .unwrap()
            .into_iter()
            .filter(|m| !matches!(m, Move::Place(p) if !zone.contains(*p)))
            .map(|m| {
                let after = root.play(&m).unwrap();
                let proof = prove_within(&after, &budget).unwrap();
                let sub = proof.certificate.expect("proved");
                assert_eq!(sub.winner, Side::Ohs, "{m}");
                (m, sub)
            })
            .collect();
        assert_eq!(replies.len(), 14);
        Deep {
            root,
            pass: cert(DEEP_PASS),
            replies,
        }
    }

    /// The certificate with `zone` on its pass line, without the reply
    /// `skip` (and its proof).
    fn build(&self, zone: Bitboard, skip: Option<&Move>) -> Certificate {
        let mut nodes = vec![CertificateNode {
            position: self.root,
            moves: Vec::new(),
            otherwise: None,
            pass: Some(PassAnswer { target: 1, zone }),
        }];
        append(&mut nodes, &self.pass);
        for (m, sub) in &self.replies {
            if Some(m) != skip {
                let target = append(&mut nodes, sub);
                nodes[0].moves.push((m.clone(), Target::Node(target)));
            }
        }
        Certificate {
            winner: Side::Ohs,
            nodes,
        }
    }
}

/// Appends `sub`'s nodes, renumbered, to `nodes`: the index of its root.
fn append(nodes: &mut Vec<CertificateNode>, sub: &Certificate) -> usize {
    let offset = nodes.len();
    let shift = |t: Target| match t {
        Target::Goal => Target::Goal,
        Target::Node(n) => Target::Node(n + offset),
    };
    nodes.extend(sub.nodes.iter().map(|n| {
        CertificateNode {
            position: n.position,
            moves: n
                .moves
                .iter()
                .map(|(m, t)| (m.clone(), shift(*t)))
                .collect(),
            otherwise: n.otherwise.clone(),
            pass: n.pass.as_ref().map(|p| PassAnswer {
                target: p.target + offset,
                zone: p.zone,
            }),
        }
    }));
    offset
}

#[test]
fn a_pass_proof_a_few_plies_deep_answers_the_placements_its_zone_leaves() {
    let deep = Deep::new();
    assert_eq!(check(&deep.pass), Ok(3));
    let full = zone(DEEP_ZONE);
    let c = deep.build(full, None);
    let longest_reply = deep
        .replies
        .iter()
        .map(|(_, sub)| 1 + check(sub).unwrap())
        .max()
        .unwrap();
    assert_eq!(check(&c), Ok(longest_reply.max(1 + 3)));
    assert_eq!(c.to_string().parse::<Certificate>().unwrap(), c);
    assert!(c.to_string().contains(&format!("pass 1 {DEEP_ZONE}\n")));
    // 20 placements are answered by the pass line: none of them is listed.
    assert_eq!(c.nodes[0].moves.len(), 14);
    // Each point of the zone is needed: left out (with its reply, if a
    // placement can take it), it is named.
    for p in full {
        let skipped = Move::Place(p);
        let bad = deep.build(full - Bitboard::from_point(p), Some(&skipped));
        assert_eq!(
            check(&bad),
            Err(CertificateError::ZoneLeavesOut {
                node: 0,
                target: 1,
                point: p,
            }),
            "{p}"
        );
    }
    // A reply in the zone dropped: missing.
    let b4 = Move::Place(point("B4"));
    assert_eq!(
        check(&deep.build(full, Some(&b4))),
        Err(CertificateError::MissingReply { node: 0, mv: b4 })
    );
    // The jump C4-C6 is never answered by a pass line.
    let jump: Move = "C4-C6".parse().unwrap();
    assert!(matches!(
        check(&deep.build(full, Some(&jump))),
        Err(CertificateError::MissingReply { node: 0, mv }) if mv == jump
    ));
}

#[test]
fn committed_version_1_certificates_still_read_and_check() {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../../certificates");
    // The plies certificates/starts.json records.
    for (name, plies) in [("3x5", 3), ("3x7", 7), ("5x7", 23)] {
        let file = File::open(format!("{folder}/{name}.txt.gz")).unwrap();
        let c = Certificate::read_within(file, &Budget::default()).unwrap();
        assert!(c.nodes.iter().all(|n| n.pass.is_none()), "{name}");
        assert_eq!(check(&c), Ok(plies), "{name}");
        let text = c.to_string();
        assert!(text.starts_with("phutball-proof 1\n"), "{name}");
        assert_eq!(text.parse::<Certificate>().unwrap(), c, "{name}");
    }
}

#[test]
fn the_examples_of_the_docs_check() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/certificates.md");
    let markdown = std::fs::read_to_string(path).unwrap();
    let examples: Vec<&str> = markdown
        .split("```text\n")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .filter(|block| block.starts_with("phutball-proof"))
        .collect();
    assert_eq!(examples.len(), 2);
    assert_eq!(examples[1], THREAT);
    for text in examples {
        let c = cert(text);
        assert!(check(&c).is_ok(), "{text}");
        assert_eq!(c.to_string(), text);
    }
}
