//! A network's weights file is one board's: each game refuses the other's files, whatever their king layout,
//! with an error that names the inputs the file states and those the board takes.

use tabula_chess::engine::eval::nnue as chess;
use tabula_xiangqi::engine::nnue as xiangqi;

#[test]
fn each_game_refuses_the_other_games_network_files() {
    let mut chess_files = vec![chess::Network::embedded().to_bytes()];
    for &(_, kings) in chess::KingLayout::NAMED {
        chess_files.push(chess::Network::from_layers(&chess::Layers::random(kings, 1)).unwrap().to_bytes());
    }
    for bytes in &chess_files {
        let err = xiangqi::Network::from_bytes(bytes).unwrap_err();
        assert!(matches!(err, xiangqi::NetError::Shape { inputs: 768, takes: 1260, .. }), "{err:?}");
        assert!(err.to_string().contains("768") && err.to_string().contains("1260"), "{err}");
        assert!(chess::Network::from_bytes(bytes).is_ok());
    }
    for &(name, kings) in xiangqi::KingLayout::NAMED {
        let bytes = xiangqi::Network::from_layers(&xiangqi::Layers::random(kings, 1)).unwrap().to_bytes();
        let err = chess::Network::from_bytes(&bytes).unwrap_err();
        assert!(matches!(err, chess::NetError::Shape { inputs: 1260, takes: 768, .. }), "{name}: {err:?}");
        assert!(err.to_string().contains("1260") && err.to_string().contains("768"), "{name}: {err}");
        assert!(xiangqi::Network::from_bytes(&bytes).is_ok(), "{name}");
    }
}
